#!/usr/bin/env node
// A certified third-party OpenID Provider (panva's oidc-provider) for the
// tests: the service must work with a standard provider configured in any of
// the ordinary ways, not only with the development IdP (localstack/idp).
//
// It listens on --host/--port (port 0 = any free port), prints
// "READY <issuer>" and exits with its parent. Its configuration is the JSON
// in the environment variable OIDC_PROVIDER_CONFIG:
//
//   claimsInIdToken    true: the scopes' claims are in the ID token too;
//                      false (OIDC's default for the code flow): at userinfo only
//   accessTokenFormat  "jwt" (RFC 9068, typ at+jwt) or "opaque" (introspection)
//   apiAudience        the resource indicator (and audience) of the API
//   apiScope           the API's scope (space-separated)
//   acrValues          contexts from weakest to strongest; the login form's
//                      "second factor" box asserts the last, else the first
//   scopes             extra scopes and their claims: {"eduperson": ["eduperson_principal_name"]}
//   accounts           login name -> claims (must include sub)
//   clients            oidc-provider client metadata; a client listed in
//                      webClients gets no API audience by default (its access
//                      token is for userinfo)
//   webClients         client ids of browser sign-ins
//
// acr_values are voluntary here, as in most providers: a session is reused
// unless the relying party sends prompt=login or max_age=0.
import http from "node:http";
import { createRequire } from "node:module";
import Provider, { errors } from "oidc-provider";

const require = createRequire(import.meta.url);
const { parseListenArgs, reportReady, exitWithParent, fail } = require("./launcher-common.js");

const { host, port } = parseListenArgs(process.argv.slice(2));
let cfg;
try {
  cfg = JSON.parse(process.env.OIDC_PROVIDER_CONFIG || "{}");
} catch (err) {
  fail(`OIDC_PROVIDER_CONFIG is not JSON: ${err.message}`);
}
const acrValues = cfg.acrValues || ["urn:invite:test:password", "urn:invite:test:mfa"];
const accounts = cfg.accounts || {};
const webClients = new Set(cfg.webClients || []);
const bySub = new Map(Object.values(accounts).map((claims) => [claims.sub, claims]));

const escapeHTML = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHTML(title)}</title></head><body><main><h1>${escapeHTML(title)}</h1>${body}</main></body></html>`;
}

function readForm(req) {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      data += chunk;
      if (data.length > 64 << 10) reject(new Error("form too large"));
    });
    req.on("end", () => resolve(new URLSearchParams(data)));
    req.on("error", reject);
  });
}

const server = http.createServer();
server.listen(port, host, () => {
  const addr = server.address();
  const h = host.includes(":") ? `[${host}]` : host;
  const issuer = `http://${h}:${addr.port}`;
  const scopeClaims = { ...(cfg.scopes || {}) };
  const provider = new Provider(issuer, {
    clients: cfg.clients || [],
    claims: {
      openid: ["sub"],
      profile: ["name", "given_name", "family_name"],
      email: ["email", "email_verified"],
      ...scopeClaims,
    },
    scopes: ["openid", "offline_access", ...Object.keys(scopeClaims)],
    acrValues,
    conformIdTokenClaims: !cfg.claimsInIdToken,
    async findAccount(_ctx, sub) {
      const claims = bySub.get(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ ...claims }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: true },
      backchannelLogout: { enabled: true },
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.body = page("Sign out", `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client) => (webClients.has(client.clientId) ? undefined : cfg.apiAudience),
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx, resource) {
          if (resource !== cfg.apiAudience) throw new errors.InvalidTarget();
          return {
            scope: cfg.apiScope || "invite",
            audience: cfg.apiAudience,
            accessTokenTTL: 600,
            accessTokenFormat: cfg.accessTokenFormat === "opaque" ? "opaque" : "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    // The authentication context and time of the sign-in travel with the
    // access token (JWT claims, introspection), as the API needs them.
    async extraTokenClaims(ctx, token) {
      const code = ctx.oidc && ctx.oidc.entities && ctx.oidc.entities.AuthorizationCode;
      if (token.kind !== "AccessToken" || !code || !token.accountId) return undefined;
      return { acr: code.acr, auth_time: code.authTime };
    },
    pkce: { required: () => true },
    // The provider refuses to call special-use addresses (SSRF protection);
    // in the tests the relying party's back-channel logout URI is on
    // loopback, the only network there is.
    fetch(url, options) {
      const { dispatcher: _ssrfGuard, ...rest } = options;
      return globalThis.fetch(url, rest);
    },
    renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = page("Error", `<p id="error">${escapeHTML(out.error)}: ${escapeHTML(out.error_description || "")}</p>`);
    },
  });
  provider.on("server_error", (_ctx, err) => process.stderr.write(`server_error: ${err.stack}\n`));
  provider.on("backchannel.error", (_ctx, err) => process.stderr.write(`backchannel.error: ${err.stack}\n`));
  const callback = provider.callback();

  server.on("request", async (req, res) => {
    const url = new URL(req.url, issuer);
    const m = url.pathname.match(/^\/interaction\/([^/]+)(\/login)?$/);
    if (!m) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === "POST" && m[2]) {
        const form = await readForm(req);
        const account = accounts[form.get("login") || ""];
        if (!account) {
          res.writeHead(200, { "content-type": "text/html" });
          res.end(loginPage(details, "Unknown account"));
          return;
        }
        const acr = form.get("mfa") === "on" ? acrValues[acrValues.length - 1] : acrValues[0];
        const amr = form.get("mfa") === "on" ? ["pwd", "otp"] : ["pwd"];
        await provider.interactionFinished(req, res, { login: { accountId: account.sub, acr, amr } }, { mergeWithLastSubmission: false });
        return;
      }
      if (details.prompt.name === "login") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(loginPage(details, ""));
        return;
      }
      // Consent is given at once: what is tested is the relying party.
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      const missing = details.prompt.details;
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      if (missing.missingResourceScopes) {
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes)) {
          grant.addResourceScope(indicator, scopes.join(" "));
        }
      }
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (err) {
      res.writeHead(400, { "content-type": "text/html" });
      res.end(page("Error", `<p id="error">${escapeHTML(err.message)}</p>`));
    }
  });

  function loginPage(details, problem) {
    const asked = details.params.acr_values ? `<p id="acr-values">Asked for: ${escapeHTML(details.params.acr_values)}</p>` : "";
    const note = problem ? `<p id="problem">${escapeHTML(problem)}</p>` : "";
    return page(
      "Sign in at the test provider",
      `${note}${asked}<form method="post" action="/interaction/${escapeHTML(details.uid)}/login">` +
        `<label>Login <input id="login" name="login" autocomplete="off"></label>` +
        `<label><input type="checkbox" id="mfa" name="mfa"> Use a second factor</label>` +
        `<button type="submit" id="sign-in">Sign in</button></form>`,
    );
  }

  server.on("error", (err) => fail(`oidc-provider: ${err.message}`));
  reportReady(server, host);
  exitWithParent(server);
});
