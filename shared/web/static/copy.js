// The "Copy link" buttons beside invitation links (the copylink template).
// Without this file the buttons stay hidden and the links are read-only
// fields that can be selected. A file of its own: the CSP allows no inline
// script.
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button[data-copy]");
  function say(id, key) {
    var all = document.querySelectorAll(".copy-status");
    for (var i = 0; i < all.length; i++) { all[i].textContent = ""; }
    var status = document.getElementById(id + "-status");
    if (!status) { return; }
    // Emptied first and filled a moment later, so that a second copy of
    // the same link is announced again.
    window.setTimeout(function () { status.textContent = status.getAttribute(key); }, 100);
  }
  function copy(field) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value);
    }
    field.select();
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }
  Array.prototype.forEach.call(buttons, function (button) {
    var id = button.getAttribute("data-copy");
    var field = document.getElementById(id);
    if (!field) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(field).then(function () { say(id, "data-copied"); }, function () {
        field.focus();
        field.select();
        say(id, "data-failed");
      });
    });
  });
}());
