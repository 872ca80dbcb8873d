import fr from '../../../locales/fr/identity.json' with { type: 'json' };
import en from '../../../locales/en/identity.json' with { type: 'json' };

export type Strings = typeof fr;
export type Lang = 'fr' | 'en';
export const strings: Record<Lang, Strings> = { fr, en };
export type PageError = keyof Strings['errors'];

/** French unless the locale cookie or the browser asks for English, as on the site. */
export function pickLang(cookieHeader: string | undefined, acceptLanguage: string | undefined): Lang {
  const cookie = /(?:^|;\s*)locale=(fr|en)\b/.exec(cookieHeader ?? '')?.[1];
  if (cookie === 'fr' || cookie === 'en') return cookie;
  const first = (acceptLanguage ?? '')
    .split(',')
    .map((l) => l.trim().slice(0, 2).toLowerCase())
    .find((l) => l === 'fr' || l === 'en');
  return first === 'en' ? 'en' : 'fr';
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
:root{color-scheme:light dark;--bg:#f4f7f4;--card:#fff;--fg:#1b1f1b;--muted:#5b665b;--primary:#2e7d32;--primary-fg:#fff;--border:#d5ddd5;--error-bg:#fdecea;--error-fg:#8a1c14;--accent:#7b1fa2}
@media (prefers-color-scheme:dark){:root{--bg:#0f1410;--card:#1a211b;--fg:#e8efe8;--muted:#a5b2a5;--primary:#66bb6a;--primary-fg:#0b1a0c;--border:#334033;--error-bg:#3b1512;--error-fg:#ffb4ab;--accent:#ce93d8}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px 16px;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.brand{font-weight:800;font-size:1.5rem;color:var(--primary);text-decoration:none;margin-bottom:16px;letter-spacing:.02em}
main{width:100%;max-width:420px;background:var(--card);border:1px solid var(--border);border-radius:12px;padding:28px 24px;box-shadow:0 4px 20px rgba(0,0,0,.08)}
h1{font-size:1.35rem;margin:0 0 16px}nav.tabs{display:flex;gap:4px;margin-bottom:20px;border-bottom:1px solid var(--border)}
nav.tabs a{flex:1;text-align:center;padding:10px;color:var(--muted);text-decoration:none;font-weight:600;border-bottom:3px solid transparent}
nav.tabs a[aria-current=page]{color:var(--primary);border-bottom-color:var(--primary)}
label{display:block;font-weight:600;margin:14px 0 6px}input{width:100%;padding:11px 12px;border:1px solid var(--border);border-radius:8px;background:transparent;color:var(--fg);font:inherit}
input:focus{outline:2px solid var(--primary);outline-offset:1px}.hint{font-size:.85rem;color:var(--muted);margin:4px 0 0}
button{width:100%;margin-top:22px;padding:12px;border:0;border-radius:8px;background:var(--primary);color:var(--primary-fg);font:inherit;font-weight:700;cursor:pointer}
.error{background:var(--error-bg);color:var(--error-fg);border-radius:8px;padding:10px 12px;margin-bottom:8px}
.alt{margin-top:18px;text-align:center;color:var(--muted)}.alt a,footer a{color:var(--accent)}footer{margin-top:20px;font-size:.9rem}`;

function layout(lang: Lang, title: string, body: string): string {
  const t = strings[lang];
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" type="image/svg+xml" href="/favicon.svg"><title>${esc(title)} · BlockHost</title><style>${STYLE}</style></head><body>
<a class="brand" href="/">BlockHost</a><main>${body}</main><footer><a href="/">${esc(t.backHome)}</a></footer></body></html>`;
}

export interface FormPageInput {
  lang: Lang;
  uid: string;
  mode: 'signin' | 'signup';
  error?: PageError | undefined;
  values?: { login?: string; username?: string; email?: string };
}

/** The sign-in and sign-up page of the embedded provider ("Inscription / Connexion"). */
export function renderForm({ lang, uid, mode, error, values = {} }: FormPageInput): string {
  const t = strings[lang];
  const base = `/oidc/interaction/${esc(uid)}`;
  const tabs = `<nav class="tabs" aria-label="${esc(t.title)}">
<a href="${base}?lang=${lang}" ${mode === 'signin' ? 'aria-current="page"' : ''}>${esc(t.signInTab)}</a>
<a href="${base}?mode=signup&amp;lang=${lang}" ${mode === 'signup' ? 'aria-current="page"' : ''}>${esc(t.signUpTab)}</a></nav>`;
  const alert = error ? `<p class="error" role="alert">${esc(t.errors[error])}</p>` : '';
  const form =
    mode === 'signin'
      ? `<h1>${esc(t.signInHeading)}</h1>${alert}<form method="post" action="${base}/login?lang=${lang}">
<label for="login">${esc(t.login)}</label><input id="login" name="login" autocomplete="username" required maxlength="254" value="${esc(values.login ?? '')}" autofocus>
<label for="password">${esc(t.password)}</label><input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200">
<button type="submit">${esc(t.signIn)}</button></form>
<p class="alt"><a href="/oidc/ui/forgot?lang=${lang}">${esc(t.forgotLink)}</a></p>
<p class="alt">${esc(t.noAccount)} <a href="${base}?mode=signup&amp;lang=${lang}">${esc(t.signUpTab)}</a></p>`
      : `<h1>${esc(t.signUpHeading)}</h1>${alert}<form method="post" action="${base}/signup?lang=${lang}">
<label for="username">${esc(t.username)}</label><input id="username" name="username" autocomplete="username" required minlength="3" maxlength="32" pattern="[A-Za-z0-9_.\\-]{3,32}" value="${esc(values.username ?? '')}" aria-describedby="username-hint" autofocus>
<p class="hint" id="username-hint">${esc(t.usernameHint)}</p>
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${esc(values.email ?? '')}">
<label for="password">${esc(t.password)}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="200" aria-describedby="password-hint">
<p class="hint" id="password-hint">${esc(t.passwordHint)}</p>
<button type="submit">${esc(t.signUp)}</button></form>
<p class="alt">${esc(t.haveAccount)} <a href="${base}?lang=${lang}">${esc(t.signInTab)}</a></p>`;
  return layout(lang, t.title, tabs + form);
}

/** The second step of a sign-in with two-factor on: a code, carried with the signed proof of the first step. */
export function renderTotp(lang: Lang, uid: string, pending: string, error?: PageError): string {
  const t = strings[lang];
  const alert = error ? `<p class="error" role="alert">${esc(t.errors[error])}</p>` : '';
  return layout(
    lang,
    t.totpHeading,
    `<h1>${esc(t.totpHeading)}</h1>${alert}<p>${esc(t.totpIntro)}</p><form method="post" action="/oidc/interaction/${esc(uid)}/totp?lang=${lang}">
<input type="hidden" name="pending" value="${esc(pending)}">
<label for="code">${esc(t.totpCode)}</label><input id="code" name="code" autocomplete="one-time-code" inputmode="text" required maxlength="20" autofocus>
<button type="submit">${esc(t.totpVerify)}</button></form>`,
  );
}

/** "Forgot password": the address to send a reset link to. */
export function renderForgot(lang: Lang): string {
  const t = strings[lang];
  return layout(
    lang,
    t.forgotHeading,
    `<h1>${esc(t.forgotHeading)}</h1><p>${esc(t.forgotIntro)}</p><form method="post" action="/oidc/ui/forgot?lang=${lang}">
<label for="email">${esc(t.email)}</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" autofocus>
<button type="submit">${esc(t.forgotSend)}</button></form>`,
  );
}

/** A reset link's page: the new password, with the sign-up's rules. */
export function renderReset(lang: Lang, token: string, error?: PageError): string {
  const t = strings[lang];
  const alert = error ? `<p class="error" role="alert">${esc(t.errors[error])}</p>` : '';
  return layout(
    lang,
    t.resetHeading,
    `<h1>${esc(t.resetHeading)}</h1>${alert}<form method="post" action="/oidc/ui/reset?lang=${lang}">
<input type="hidden" name="token" value="${esc(token)}">
<label for="password">${esc(t.newPassword)}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="200" aria-describedby="password-hint" autofocus>
<p class="hint" id="password-hint">${esc(t.passwordHint)}</p>
<button type="submit">${esc(t.resetSave)}</button></form>`,
  );
}

/** An email change's link: a button, so a mail scanner opening the link confirms nothing. */
export function renderConfirmEmail(lang: Lang, token: string): string {
  const t = strings[lang];
  return layout(
    lang,
    t.confirmEmailHeading,
    `<h1>${esc(t.confirmEmailHeading)}</h1><form method="post" action="/oidc/ui/email?lang=${lang}">
<input type="hidden" name="token" value="${esc(token)}"><button type="submit">${esc(t.confirmEmail)}</button></form>`,
  );
}

export function renderMessage(lang: Lang, title: string, message: string, link?: { href: string; label: string }): string {
  return layout(lang, title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>${link ? `<p><a href="${esc(link.href)}">${esc(link.label)}</a></p>` : ''}`);
}

/** A file, not an inline script, so the content security policy can stay strict. */
export const LOGOUT_SCRIPT = '/oidc/ui/logout.js';
export const LOGOUT_SCRIPT_BODY = "document.getElementById('op.logoutForm').submit();\n";

/** RP-initiated logout: the provider's confirmation form, sent at once (a button remains without scripts). */
export function renderLogout(lang: Lang, form: string): string {
  const t = strings[lang];
  const auto = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  return layout(
    lang,
    t.signOut,
    `<h1>${esc(t.signingOut)}</h1>${auto}<button type="submit" form="op.logoutForm">${esc(t.signOut)}</button>
<script src="${LOGOUT_SCRIPT}"></script>`,
  );
}
