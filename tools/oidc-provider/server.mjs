// A real OpenID provider (the certified npm package `oidc-provider`) for the identity tests and an
// optional SSO demo: clients and users from a JSON file, password-checked login pages of its own,
// PKCE required, refresh tokens, RP-initiated logout. Usage: node server.mjs config.json
// config: {"port", "issuer", "cookie_key", "test_secret", "clients": [...], "users": {"ada": {...}}}
import http from 'node:http';
import { readFileSync } from 'node:fs';
import Provider from 'oidc-provider';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const users = config.users;
const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const provider = new Provider(config.issuer, {
  clients: config.clients,
  cookies: { keys: [config.cookie_key] },
  pkce: { required: () => true },
  scopes: ['openid', 'profile', 'email', 'groups', 'posix', 'offline_access'],
  claims: {
    openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'],
    groups: ['groups'], posix: ['uid_number'],
  },
  features: {
    devInteractions: { enabled: false },
    rpInitiatedLogout: { enabled: true },
    revocation: { enabled: true },
    introspection: { enabled: true },
  },
  ttl: { AccessToken: (ctx, token) => users[token.accountId]?.access_token_ttl || config.access_token_ttl || 600,
         IdToken: 600, Session: 3600, Grant: 3600,
         Interaction: 600, RefreshToken: 3600 },
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(ctx, sub) {
    const user = users[sub];
    if (!user) return undefined;
    return {
      accountId: sub,
      async claims() {
        const claims = { sub, preferred_username: user.username || sub, name: user.name, email: user.email, groups: user.groups };
        if (user.uid !== undefined) claims.uid_number = user.uid;
        return claims;
      },
    };
  },
});

function page(res, uid, error = '') {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html lang="en"><head><title>Test university sign-in</title></head><body>
<h1>Test university sign-in</h1>${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}">
<label>Username <input name="login" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></body></html>`);
}

async function body(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return Object.fromEntries(new URLSearchParams(text));
}

async function grant(details, accountId) {
  const g = details.grantId ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: details.params.client_id });
  g.addOIDCScope(details.params.scope);
  return g.save();
}

async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'consent') {  // the people's own university: consent is implied
    const grantId = await grant(details, details.session.accountId);
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  if (req.method === 'GET') return page(res, details.uid);
  const form = await body(req);
  const user = users[form.login];
  if (!user || user.password !== form.password) return page(res, details.uid, 'Wrong username or password.');
  const grantId = await grant(details, form.login);
  return provider.interactionFinished(req, res, { login: { accountId: form.login }, consent: { grantId } },
    { mergeWithLastSubmission: false });
}

const callback = provider.callback();
http.createServer(async (req, res) => {
  try {
    const path = new URL(req.url, config.issuer).pathname;
    if (path.startsWith('/interaction/')) return await interaction(req, res);
    if (path === '/_test/groups' && req.method === 'POST' && req.headers['x-test-secret'] === config.test_secret) {
      const form = await body(req);  // tests move a user between groups, as a directory admin would
      users[form.user].groups = form.groups ? form.groups.split(',') : [];
      res.statusCode = 204;
      return res.end();
    }
    return callback(req, res);
  } catch (err) {
    res.statusCode = 500;
    return res.end(String(err));
  }
}).listen(config.port, '127.0.0.1', () => console.log(`READY ${config.issuer}`));
