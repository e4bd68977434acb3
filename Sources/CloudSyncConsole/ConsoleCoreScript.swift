/// The console's core script (`/console/core.js`): the sign-in (token kept in sessionStorage
/// only; a `#token=…` link is read and dropped from the address bar at once), the Web Services
/// client, the DOM helpers (every value from the cloud is inserted as a text node, never as
/// HTML) and the hash router the other scripts register their views with.
enum ConsoleCoreScript {
    static let text = #"""
'use strict';
/* cloudsync console: core. No framework; values from the server only ever become text nodes. */
const CS = { views: [], nav: [] };
(function () {
  const store = window.sessionStorage;
  const DEFAULT_CONTAINER = 'iCloud.com.example.App';

  // ---- DOM helpers ----
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else if (k === 'value') el.value = v;
        else if (k === 'checked') el.checked = !!v;
        else if (k === 'href') el.setAttribute('href', safeHref(v));
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    add(el, kids);
    return el;
  }
  function add(el, ...kids) {
    for (const kid of [kids].flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.appendChild(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }
  // Only our own hash links and http(s) URLs become links.
  function safeHref(v) {
    const s = String(v);
    if (s.startsWith('#')) return s;
    try {
      const u = new URL(s, window.location.href);
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
    } catch (e) { /* not a URL */ }
    return '#';
  }
  function route(...parts) { return '#/' + parts.map((p) => encodeURIComponent(String(p))).join('/'); }
  function link(text, ...parts) { return h('a', { href: route(...parts) }, text); }
  function table(headers, rows, opts) {
    return h('div', { class: 'table-wrap' }, h('table', opts || null,
      h('thead', null, h('tr', null, headers.map((x) => h('th', null, x)))),
      h('tbody', null, rows)));
  }
  function banner(kind, ...text) { return h('div', { class: 'banner ' + kind, role: kind === 'bad' ? 'alert' : null }, text); }
  function toast(text) {
    const box = document.getElementById('toast');
    const item = h('div', null, text);
    box.appendChild(item);
    setTimeout(() => item.remove(), 3000);
  }
  function when(ms) {
    if (ms === undefined || ms === null || ms === '') return '';
    const d = new Date(Number(ms));
    return isNaN(d.getTime()) ? String(ms) : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }
  function bytes(n) {
    n = Number(n) || 0;
    if (n < 1024) return n + ' B';
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    let i = -1;
    do { n /= 1024; i++; } while (n >= 1024 && i < units.length - 1);
    return n.toFixed(1) + ' ' + units[i];
  }
  function confirmTyped(question, word) {
    const answer = window.prompt(question + '\n\nType ' + word + ' to confirm.');
    return answer !== null && answer.trim() === word;
  }

  // ---- session ----
  const session = {
    get token() { return store.getItem('cs.token') || ''; },
    get kind() { return store.getItem('cs.kind') || 'user'; },
    get container() { return store.getItem('cs.container') || DEFAULT_CONTAINER; },
    get env() { return store.getItem('cs.env') || 'development'; },
    get account() { return store.getItem('cs.account') || ''; },
    get userRecordName() { return store.getItem('cs.user') || ''; },
    get role() { return store.getItem('cs.role') || 'user'; },
    set(key, value) { store.setItem('cs.' + key, value); },
    clear() { ['token', 'kind', 'account', 'user', 'role'].forEach((k) => store.removeItem('cs.' + k)); },
    get isAPI() { return this.kind === 'api'; },
    get isAdmin() { return this.role === 'admin'; },
  };

  // ---- the Web Services client ----
  class APIError extends Error {
    constructor(status, json, text) {
      const reason = (json && (json.reason || json.serverErrorCode)) || text || ('HTTP ' + status);
      super(reason);
      this.status = status;
      this.code = json && json.serverErrorCode;
      this.json = json;
    }
  }
  async function send(path, body, method) {
    const headers = { 'Content-Type': 'application/json' };
    let url = path;
    if (session.isAPI) url += (url.includes('?') ? '&' : '?') + 'ckAPIToken=' + encodeURIComponent(session.token);
    else headers.Authorization = 'Bearer ' + session.token;
    headers['X-CloudSync-Device'] = 'console';
    const init = { method: method || 'POST', headers, cache: 'no-store', credentials: 'omit', redirect: 'error' };
    if ((method || 'POST') === 'POST') init.body = JSON.stringify(body || {});
    const response = await fetch(url, init);
    const text = await response.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
    if (!response.ok) throw new APIError(response.status, json, text);
    return json === null ? text : json;
  }
  function dbPath(env, db, endpoint) {
    return '/database/1/' + encodeURIComponent(session.container) + '/' + encodeURIComponent(env) + '/' +
      encodeURIComponent(db) + '/' + endpoint;
  }
  const api = {
    call(env, db, endpoint, body) { return send(dbPath(env, db, endpoint), body); },
    admin(name, body) { return send('/admin/1/' + name, body); },
    metrics() { return send('/metrics', null, 'GET'); },
  };

  // ---- sign-in ----
  async function signIn(token, kind, container) {
    session.set('token', token);
    session.set('kind', kind);
    session.set('container', container || DEFAULT_CONTAINER);
    if (kind === 'api') {
      await api.call(session.env, 'public', 'zones/list', {});
      session.set('account', '(API token: public database, read only)');
      session.set('role', 'none');
      return;
    }
    const me = await api.call('development', 'private', 'users/current', {});
    session.set('account', me.accountName || '');
    session.set('user', me.userRecordName || '');
    const role = await api.admin('role', {});
    session.set('role', role.role || 'user');
  }
  function signInView(problem) {
    const token = h('input', { type: 'password', id: 'token', autocomplete: 'off', placeholder: 'cst_… or 64 hex characters', class: 'grow' });
    const container = h('input', { id: 'container', value: session.container, class: 'grow' });
    const kindUser = h('input', { type: 'radio', name: 'kind', value: 'user', checked: true });
    const kindAPI = h('input', { type: 'radio', name: 'kind', value: 'api' });
    const status = h('div');
    const form = h('form', { class: 'card signin', id: 'signin' },
      h('h1', null, 'Sign in'),
      h('p', { class: 'muted' }, 'Give a token made on the server with cloudsync token create. It stays in this tab only (sessionStorage).'),
      h('div', { class: 'row' }, h('label', { class: 'grow' }, 'Token', token)),
      h('div', { class: 'row' }, h('label', { class: 'inline' }, kindUser, 'User token (ckWebAuthToken)'),
        h('label', { class: 'inline' }, kindAPI, 'API token (public database, read only)')),
      h('div', { class: 'row' }, h('label', { class: 'grow' }, 'Container', container)),
      h('div', { class: 'row' }, h('button', { class: 'primary', type: 'submit', id: 'signin-button' }, 'Sign in')),
      status);
    if (problem) status.appendChild(banner('bad', problem));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clear(status);
      try {
        await signIn(token.value.trim(), kindAPI.checked ? 'api' : 'user', container.value.trim());
        window.location.hash = '#/';
        render();
      } catch (e) {
        session.clear();
        status.appendChild(banner('bad', 'Sign-in refused: ' + e.message));
      }
    });
    return form;
  }

  // ---- chrome and router ----
  function header() {
    const nav = clear(document.getElementById('nav'));
    const who = clear(document.getElementById('who'));
    if (!session.token) return;
    const here = window.location.hash;
    for (const item of CS.nav) {
      if (item.when && !item.when()) continue;
      const a = h('a', { href: item.href() }, item.title);
      if (here.startsWith('#/' + item.key)) a.className = 'here';
      nav.appendChild(a);
    }
    add(who, h('span', { id: 'account' }, session.account), session.isAdmin ? h('span', { class: 'tag admin' }, 'admin') : null,
      h('span', { class: 'tag', title: 'container' }, session.container),
      h('button', { id: 'signout', type: 'button', onclick: () => { session.clear(); window.location.hash = '#/'; render(); } }, 'Sign out'));
  }
  let generation = 0;
  async function render() {
    const mine = ++generation;
    // The old view stays until the new one is ready (no flash, no half-built page to click in).
    const view = document.getElementById('view');
    view.dataset.view = 'loading';
    view.setAttribute('aria-busy', 'true');
    header();
    if (!session.token) { clear(view).appendChild(signInView()); view.dataset.view = 'signin'; view.removeAttribute('aria-busy'); return; }
    let parts;
    try {
      parts = window.location.hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '').map(decodeURIComponent);
    } catch (e) {
      parts = [];  // a malformed %-escape in a typed address: the home view
    }
    const key = parts[0] || 'home';
    const entry = CS.views.find((v) => v.key === key) || CS.views.find((v) => v.key === 'home');
    const started = performance.now();
    try {
      const content = await entry.render(parts.slice(1), () => mine === generation);
      if (mine !== generation) return;
      clear(view);
      view.appendChild(content);
      view.dataset.rendered = String(Math.round(performance.now() - started));
      view.dataset.view = key;
    } catch (e) {
      if (mine !== generation) return;
      clear(view);
      view.appendChild(banner('bad', describe(e)));
      view.dataset.view = 'error';
    }
    view.removeAttribute('aria-busy');
  }
  function describe(e) {
    if (e instanceof APIError) return (e.code ? e.code + ': ' : '') + e.message;
    return String(e && e.message ? e.message : e);
  }

  // A #token=… link signs in, then leaves the address bar at once (it never reached the server).
  // Read on load and on every hash change (a link pasted into an open console).
  async function consumeTokenLink() {
    const hash = window.location.hash;
    if (!hash.startsWith('#token=')) return true;
    const params = new URLSearchParams(hash.slice(1));
    const token = params.get('token') || '';
    history.replaceState(null, '', window.location.pathname + window.location.search + '#/');
    session.clear();
    try {
      await signIn(token, params.get('kind') === 'api' ? 'api' : 'user', params.get('container') || session.container);
      return true;
    } catch (e) {
      session.clear();
      header();
      clear(document.getElementById('view')).appendChild(signInView('Sign-in refused: ' + describe(e)));
      return false;
    }
  }
  async function onHashChange() {
    if (await consumeTokenLink()) render();
  }
  function start() {
    window.addEventListener('hashchange', onHashChange);
    onHashChange();
  }

  Object.assign(CS, { h, add, clear, route, link, table, banner, toast, when, bytes, confirmTyped, session, api, APIError, describe, render });
  document.addEventListener('DOMContentLoaded', start);
})();

"""#
}
