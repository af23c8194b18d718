// HIT pages: MTurk's assignment id, and the name-curation check before submitting.
// Served as /static/hit.js by `hits serve` (whose CSP allows no inline script); inlined into
// the HTMLQuestion sent to MTurk, which serves the page itself.
(function () {
  var assignment = document.getElementById("assignmentId");
  if (assignment) {
    var params = new URLSearchParams(window.location.search);
    var id = params.get("assignmentId") || "ASSIGNMENT_ID_NOT_AVAILABLE";
    assignment.value = id;
    if (id === "ASSIGNMENT_ID_NOT_AVAILABLE") {
      var button = document.getElementById("submit-button");
      button.disabled = true;
      button.textContent = "Accept the HIT to answer";
    }
  }
  var form = document.getElementById("hit-form");
  if (!form || !document.querySelector(".name-item")) {
    return;
  }
  form.addEventListener("submit", function (event) {
    var problems = [];
    document.querySelectorAll(".name-item").forEach(function (item, index) {
      var answer = item.querySelector(".answer");
      var missing = item.querySelector(".missing").checked;
      var value = answer.value.trim();
      if (missing) { answer.disabled = true; return; }
      answer.disabled = false;
      var text = Array.from(item.querySelectorAll(".target")).map(function (t) { return t.textContent; }).join("\n");
      if (!value) { problems.push("item " + (index + 1) + ": copy the name or tick Missing name"); }
      else if (text.indexOf(value) < 0) { problems.push("item " + (index + 1) + ": \u201c" + value + "\u201d does not occur in the translated sentences"); }
    });
    if (problems.length) {
      event.preventDefault();
      document.querySelectorAll(".answer").forEach(function (a) { a.disabled = false; });
      document.getElementById("warning").textContent = "Please fix before submitting: " + problems.join("; ");
    }
  });
})();
