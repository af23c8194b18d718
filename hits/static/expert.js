// The expert's case page: click the first and last word of the name in a translated sentence.
(function () {
  var first = null;
  document.querySelectorAll(".token").forEach(function (token) {
    token.addEventListener("click", function () {
      var cell = token.parentElement;
      var start = Number(token.dataset.start), end = Number(token.dataset.end);
      if (first && first.parentElement === cell) {
        start = Math.min(start, Number(first.dataset.start));
        end = Math.max(end, Number(first.dataset.end));
        first = null;
      } else {
        first = token;
      }
      document.querySelectorAll(".token.picked").forEach(function (t) { t.classList.remove("picked"); });
      cell.querySelectorAll(".token").forEach(function (t) {
        if (Number(t.dataset.start) >= start && Number(t.dataset.end) <= end) { t.classList.add("picked"); }
      });
      document.getElementById("name").value = cell.dataset.text.slice(start, end);
      document.getElementById("seg").value = cell.dataset.seg;
      document.getElementById("start").value = start;
    });
  });
})();
