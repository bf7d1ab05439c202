// Enter in a search field searches. A form that holds a search among other
// fields (the invite form: its role search beside the recipients) sends
// Enter to its default button, which sends the whole form unless the query
// changed since the page was shown; with this file, Enter in the search
// field always clicks the search's own button, so a repeated Enter there
// never sends the invitation. The page works without it.
(function () {
  "use strict";
  var searches = document.querySelectorAll("form [role=search]");
  for (var i = 0; i < searches.length; i++) {
    (function (search) {
      var field = search.querySelector("input[type=search], input[name=q]");
      var button = search.querySelector("button[type=submit]");
      if (!field || !button) { return; }
      field.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && !event.isComposing) {
          event.preventDefault();
          button.click();
        }
      });
      // Some input paths deliver Enter's character apart from its keydown:
      // its keypress must not submit the form a second time.
      field.addEventListener("keypress", function (event) {
        if (event.key === "Enter") { event.preventDefault(); }
      });
    }(searches[i]));
  }
}());
