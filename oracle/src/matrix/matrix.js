// ptoracle matrix: expand or collapse every case; filter cases by id.
(function () {
  "use strict";
  function all() { return document.querySelectorAll("details.case"); }
  var ex = document.getElementById("expand-all");
  var co = document.getElementById("collapse-all");
  var fi = document.getElementById("filter");
  if (ex) ex.addEventListener("click", function () { all().forEach(function (d) { d.open = true; }); });
  if (co) co.addEventListener("click", function () { all().forEach(function (d) { d.open = false; }); });
  if (fi) fi.addEventListener("input", function () {
    var q = fi.value.toLowerCase();
    all().forEach(function (d) { d.classList.toggle("hidden", d.id.toLowerCase().indexOf(q) < 0 && q !== ""); });
  });
  if (location.hash) {
    var t = document.getElementById(location.hash.slice(1));
    if (t && t.tagName === "DETAILS") t.open = true;
  }
})();
