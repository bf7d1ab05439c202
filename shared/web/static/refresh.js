// Updates the provisioning state of "you now have access" until every
// application is ready. The page works without it (a refresh link); it is
// a file of its own because the CSP allows no inline script.
(function () {
  "use strict";
  var region = document.getElementById("status");
  if (!region || !region.hasAttribute("data-pending")) { return; }
  var tries = 0;
  function poll() {
    tries += 1;
    if (tries > 90) { return; }
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (res) { return res.ok ? res.text() : Promise.reject(res.status); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, "text/html").getElementById("status");
        if (!next) { return; }
        region.innerHTML = next.innerHTML;
        if (next.hasAttribute("data-pending")) { window.setTimeout(poll, 2000); } else { region.removeAttribute("data-pending"); }
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 2000);
}());
