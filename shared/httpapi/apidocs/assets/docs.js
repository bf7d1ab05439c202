// Starts Swagger UI on the API document. A file of its own, not an inline
// script, so that the page's Content-Security-Policy allows scripts from
// this origin only.
"use strict";
window.addEventListener("DOMContentLoaded", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/docs/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    displayOperationId: true,
    tryItOutEnabled: false,
    // Opens on the list of groups, none expanded (not on the first
    // group's operations), groups and operations in order, with a filter
    // by group; the /api/external/v1 twins are their own group.
    docExpansion: "none",
    tagsSorter: "alpha",
    operationsSorter: "alpha",
    filter: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
