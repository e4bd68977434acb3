/// The console's operations script (`/console/operations.js`): subscriptions (list, inspect,
/// delete) with the live notification view (the long poll), the sharing view (a zone's share,
/// its participants, invite and remove) and, for administrators, the Operations page: tokens
/// and server-to-server keys (create, list, revoke) and the server's figures from `/metrics`.
enum ConsoleOperationsScript {
    static let text = #"""
'use strict';
(function () {
  const { h, add, clear, route, table, banner, toast, when, bytes, session, api, describe } = CS;

  // ---- subscriptions and the live notification view ----
  let polling = null;
  CS.views.push({ key: 'subscriptions', render: async (parts) => {
    const env = parts[0] || session.env;
    const db = parts[1] || 'private';
    const list = (await api.call(env, db, 'subscriptions/list', {})).subscriptions || [];
    const inspect = h('pre', { id: 'subscription-json', hidden: true });
    const rows = list.map((s) => h('tr', null,
      h('td', { class: 'mono' }, s.subscriptionID),
      h('td', null, s.subscriptionType || ''),
      h('td', null, (s.zoneID && s.zoneID.zoneName) || (s.query && s.query.recordType) || ''),
      h('td', null, h('button', { type: 'button', onclick: () => { inspect.hidden = false; inspect.textContent = JSON.stringify(s, null, 2); } }, 'Inspect'), ' ',
        h('button', { type: 'button', class: 'danger', onclick: async () => {
          if (!window.confirm('Delete subscription ' + s.subscriptionID + '?')) return;
          try {
            await api.call(env, db, 'subscriptions/modify', { operations: [{ operationType: 'delete', subscription: { subscriptionID: s.subscriptionID } }] });
            toast('Deleted ' + s.subscriptionID);
            CS.render();
          } catch (e) { toast(describe(e)); }
        } }, 'Delete'))));
    const feed = h('div', { class: 'feed', id: 'notifications' }, h('p', { class: 'muted' }, 'Not listening.'));
    const toggle = h('button', { type: 'button', id: 'listen', class: 'primary' }, 'Listen');
    toggle.addEventListener('click', async () => {
      if (polling) { polling.stop = true; polling = null; toggle.textContent = 'Listen'; return; }
      const me = { stop: false };
      polling = me;
      toggle.textContent = 'Stop';
      clear(feed).appendChild(h('p', { class: 'muted', id: 'listening' }, 'Listening for notifications to device "console"…'));
      try {
        const reg = await api.call(env, db, 'tokens/create', { deviceID: 'console', apnsEnvironment: env });
        while (!me.stop && document.body.contains(feed)) {
          const reply = await api.call(env, db, 'notifications/poll', { apnsToken: reg.apnsToken, timeout: 20 });
          for (const n of reply.notifications || []) {
            feed.insertBefore(h('div', { class: 'card notification' }, h('b', null, when(Date.now()) + ' '),
              h('pre', null, JSON.stringify(n, null, 2))), feed.firstChild);
          }
        }
      } catch (e) {
        feed.insertBefore(banner('bad', describe(e)), feed.firstChild);
        polling = null;
        toggle.textContent = 'Listen';
      }
    });
    return h('div', null, h('h1', null, 'Subscriptions'),
      CS.envTabs(env, (e) => route('subscriptions', e, db)), CS.tabs(db, ['private', 'shared', 'public'].map((d) => [d, route('subscriptions', env, d)])),
      list.length ? table(['ID', 'Type', 'Zone or record type', ''], rows, { id: 'subscriptions' }) : h('p', { class: 'muted' }, 'No subscriptions.'),
      inspect,
      h('h2', null, 'Live notifications'),
      h('p', { class: 'muted' }, 'Registers this page as device "console" and long-polls its notifications (subscriptions made for that device, or for all of the account\'s devices, arrive here).'),
      h('div', { class: 'row' }, toggle), feed);
  } });

  // ---- sharing ----
  CS.views.push({ key: 'sharing', render: async (parts) => {
    const env = parts[0] || session.env;
    const owned = (await api.call(env, 'private', 'shares/list', {})).shares || [];
    const accepted = (await api.call(env, 'shared', 'shares/list', {})).shares || [];
    const out = h('div', null, h('h1', null, 'Sharing'), CS.envTabs(env, (e) => route('sharing', e)));
    const participantRows = (share) => (share.participants || []).map((p) => h('tr', null,
      h('td', null, p.accountName || p.userRecordName), h('td', null, p.permission), h('td', null, p.acceptanceStatus),
      h('td', null, h('button', { type: 'button', class: 'danger', onclick: async () => {
        if (!window.confirm('Remove ' + (p.accountName || p.userRecordName) + ' from ' + share.zoneID.zoneName + '?')) return;
        try {
          await api.call(env, 'private', 'shares/participants', { zoneName: share.zoneID.zoneName, remove: [p.accountName || p.userRecordName] });
          CS.render();
        } catch (e) { toast(describe(e)); }
      } }, 'Remove'))));
    // Share a zone: shares/modify makes the share (the zone's records become reachable by its participants).
    const zones = ((await api.call(env, 'private', 'zones/list', {})).zones || []).map((z) => z.zoneID.zoneName)
      .filter((z) => z !== '_defaultZone' && !owned.some((s) => s.zoneID.zoneName === z));
    if (zones.length) {
      const pick = h('select', { id: 'share-zone' }, zones.map((z) => h('option', null, z)));
      const title = h('input', { id: 'share-title', placeholder: 'title', class: 'grow' });
      out.appendChild(h('form', { class: 'card', id: 'share-create', onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          await api.call(env, 'private', 'shares/modify', { zoneName: pick.value, title: title.value.trim() || pick.value });
          toast('Sharing ' + pick.value);
          CS.render();
        } catch (e) { toast(describe(e)); }
      } }, h('h2', null, 'Share a zone'), h('div', { class: 'row' }, pick, title, h('button', { type: 'submit', class: 'primary' }, 'Share'))));
    }
    out.appendChild(h('h2', null, 'Zones I share'));
    if (!owned.length) out.appendChild(h('p', { class: 'muted' }, 'None.'));
    for (const share of owned) {
      const who = h('input', { placeholder: 'account name', class: 'grow' });
      const permission = h('select', null, ['read-only', 'read-write'].map((p) => h('option', null, p)));
      add(out, h('div', { class: 'card share' }, h('h2', null, share.title || share.zoneID.zoneName, ' ', h('span', { class: 'tag' }, share.zoneID.zoneName)),
        h('dl', { class: 'kv' }, h('dt', null, 'URL'), h('dd', { class: 'mono' }, share.url), h('dt', null, 'public permission'), h('dd', null, share.publicPermission)),
        (share.participants || []).length ? table(['Participant', 'Permission', 'Status', ''], participantRows(share)) : h('p', { class: 'muted' }, 'No participants.'),
        h('form', { class: 'row', onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            await api.call(env, 'private', 'shares/participants', { zoneName: share.zoneID.zoneName, add: [who.value.trim()], permission: permission.value });
            CS.render();
          } catch (e) { toast(describe(e)); }
        } }, who, permission, h('button', { type: 'submit', class: 'primary' }, 'Invite')),
        h('div', { class: 'row' }, h('button', { type: 'button', class: 'danger stop-sharing', onclick: async () => {
          if (!window.confirm('Stop sharing ' + share.zoneID.zoneName + '? Participants lose access.')) return;
          try {
            await api.call(env, 'private', 'shares/delete', { zoneName: share.zoneID.zoneName });
            toast('Stopped sharing ' + share.zoneID.zoneName);
            CS.render();
          } catch (e) { toast(describe(e)); }
        } }, 'Stop sharing'))));
    }
    out.appendChild(h('h2', null, 'Zones shared with me'));
    out.appendChild(accepted.length ? table(['Zone', 'Owner', 'Title'], accepted.map((s) => h('tr', null,
      h('td', null, s.zoneID.zoneName), h('td', null, (s.owner && s.owner.accountName) || s.zoneID.ownerRecordName), h('td', null, s.title)))) : h('p', { class: 'muted' }, 'None.'));
    return out;
  } });

  // ---- operations (administrators) ----
  function parseMetrics(text) {
    const samples = [];
    for (const line of String(text).split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
      if (!m) continue;
      const labels = {};
      if (m[2]) for (const part of m[2].match(/\w+="(?:[^"\\]|\\.)*"/g) || []) {
        const eq = part.indexOf('=');
        labels[part.slice(0, eq)] = JSON.parse(part.slice(eq + 1));
      }
      samples.push({ name: m[1], labels, value: Number(m[3]) });
    }
    return samples;
  }
  function quantile(buckets, q) {
    // buckets: [{le, count}] cumulative, ascending; the bound where the count reaches q of the total.
    const total = buckets.length ? buckets[buckets.length - 1].count : 0;
    if (!total) return null;
    for (const b of buckets) if (b.count >= q * total) return b.le;
    return Infinity;
  }
  let previous = null;
  function figures(samples, since, uptime) {
    const by = {};
    const ep = (name) => (by[name] = by[name] || { count: 0, errors: 0, buckets: {} });
    for (const s of samples) {
      if (s.name === 'cloudsync_http_requests_total') ep(s.labels.endpoint).count += s.value;
      if (s.name === 'cloudsync_http_errors_total') ep(s.labels.endpoint).errors += s.value;
      if (s.name === 'cloudsync_http_request_duration_seconds_bucket') ep(s.labels.endpoint).buckets[s.labels.le] = s.value;
    }
    const rows = [];
    for (const name of Object.keys(by).sort()) {
      const now = by[name];
      const then = since && since.by[name] || { count: 0, errors: 0, buckets: {} };
      const seconds = since ? Math.max(0.001, (Date.now() - since.at) / 1000) : null;
      const les = Object.keys(now.buckets).sort((a, b) => (a === '+Inf' ? Infinity : Number(a)) - (b === '+Inf' ? Infinity : Number(b)));
      const delta = les.map((le) => ({ le: le === '+Inf' ? Infinity : Number(le), count: now.buckets[le] - (then.buckets[le] || 0) }));
      const useDelta = since && delta.length && delta[delta.length - 1].count > 0;
      const win = useDelta ? delta : les.map((le) => ({ le: le === '+Inf' ? Infinity : Number(le), count: now.buckets[le] }));
      const ms = (v) => v === null ? '' : v === Infinity ? '> 30 s' : '≤ ' + (v * 1000) + ' ms';
      rows.push(h('tr', null, h('td', { class: 'mono' }, name), h('td', null, String(now.count)),
        h('td', null, seconds ? ((now.count - then.count) / seconds).toFixed(2) : uptime > 0 ? (now.count / uptime).toFixed(2) : '…'),
        h('td', null, String(now.errors)), h('td', null, ms(quantile(win, 0.5))), h('td', null, ms(quantile(win, 0.99)))));
    }
    return { by, rows };
  }
  CS.views.push({ key: 'operations', render: async () => {
    const [credentials, text] = await Promise.all([api.admin('credentials/list', {}), api.metrics()]);
    const samples = parseMetrics(text);
    const gauge = (name) => { const s = samples.find((x) => x.name === name); return s ? s.value : 0; };
    const f = figures(samples, previous, gauge('cloudsync_uptime_seconds'));
    previous = { at: Date.now(), by: f.by };
    const containers = {};
    for (const s of samples) {
      if (s.name === 'cloudsync_container_records') (containers[s.labels.container] = containers[s.labels.container] || {}).records = s.value;
      if (s.name === 'cloudsync_container_bytes') {
        const c = (containers[s.labels.container] = containers[s.labels.container] || {});
        c[s.labels.kind] = s.value;
      }
    }
    const out = h('div', null, h('h1', null, 'Operations'),
      h('div', { class: 'row' }, h('button', { type: 'button', id: 'refresh', onclick: () => CS.render() }, 'Refresh figures')));
    add(out, h('div', { class: 'grid' },
      h('div', { class: 'card' }, h('div', { class: 'stat', id: 'connections' }, String(gauge('cloudsync_http_connections_open'))), h('div', { class: 'muted' }, 'connections open')),
      h('div', { class: 'card' }, h('div', { class: 'stat' }, String(gauge('cloudsync_http_requests_in_flight'))), h('div', { class: 'muted' }, 'requests in flight')),
      h('div', { class: 'card' }, h('div', { class: 'stat' }, Math.round(gauge('cloudsync_uptime_seconds')) + ' s'), h('div', { class: 'muted' }, 'up'))));
    add(out, h('h2', null, 'Requests by endpoint'),
      h('p', { class: 'muted' }, 'Rates and latencies since the last refresh (on the first load, since the server started); the same figures are at GET /metrics.'),
      table(['Endpoint', 'Requests', 'Per second', 'Errors', 'p50', 'p99'], f.rows, { id: 'endpoint-figures' }));
    add(out, h('h2', null, 'Containers'), table(['Container', 'Records', 'Field bytes', 'Asset bytes'],
      Object.keys(containers).sort().map((c) => h('tr', null, h('td', null, c), h('td', null, String(containers[c].records || 0)),
        h('td', null, bytes(containers[c].fields)), h('td', null, bytes(containers[c].assets)))), { id: 'container-figures' }));
    // Tokens and keys.
    const made = h('div', { id: 'made-token' });
    const account = h('input', { id: 'new-token-account', placeholder: 'account' });
    const admin = h('input', { type: 'checkbox', id: 'new-token-admin' });
    const rows = (credentials.credentials || []).map((c) => h('tr', { 'data-id': c.id },
      h('td', { class: 'mono' }, c.id), h('td', null, c.kind === 'api-token' ? '(' + (c.container || '') + ')' : c.account),
      h('td', null, c.kind), h('td', null, c.role === 'admin' ? h('span', { class: 'tag admin' }, 'admin') : c.role),
      h('td', { class: 'hide-narrow' }, c.created), h('td', { class: 'hide-narrow' }, c.lastUsed || 'never'),
      h('td', null, h('button', { type: 'button', class: 'danger revoke', onclick: async () => {
        if (!window.confirm('Revoke ' + c.id + ' (' + (c.account || c.container) + ')? Clients using it are refused at once.')) return;
        try {
          await api.admin('credentials/revoke', { id: c.id });
          toast('Revoked ' + c.id);
          CS.render();
        } catch (e) { toast(describe(e)); }
      } }, 'Revoke'))));
    add(out, h('h2', null, 'Tokens and keys'), table(['ID', 'Account', 'Kind', 'Role', h('span', { class: 'hide-narrow' }, 'Created'), h('span', { class: 'hide-narrow' }, 'Last used'), ''], rows, { id: 'credentials' }),
      h('form', { class: 'card', id: 'token-create', onsubmit: async (ev) => {
        ev.preventDefault();
        clear(made);
        try {
          const row = await api.admin('credentials/create', { account: account.value.trim(), admin: admin.checked });
          made.appendChild(banner('ok', 'Token ' + row.id + ' for ' + row.account + ' (shown once):\n', h('span', { class: 'mono', id: 'new-token' }, row.token)));
        } catch (e) { made.appendChild(banner('bad', describe(e))); }
      } }, h('h2', null, 'New token'), h('div', { class: 'row' }, account, h('label', { class: 'inline' }, admin, 'administrator'),
        h('button', { type: 'submit', class: 'primary' }, 'Create')), made));
    const keyAccount = h('input', { placeholder: 'account' });
    const pem = h('textarea', { rows: 4, placeholder: '-----BEGIN PUBLIC KEY-----' });
    const keyStatus = h('div');
    add(out, h('form', { class: 'card', onsubmit: async (ev) => {
      ev.preventDefault();
      clear(keyStatus);
      try {
        const row = await api.admin('keys/add', { account: keyAccount.value.trim(), publicKey: pem.value });
        keyStatus.appendChild(banner('ok', 'Key ' + row.id + ' registered for ' + row.account));
      } catch (e) { keyStatus.appendChild(banner('bad', describe(e))); }
    } }, h('h2', null, 'Register a server-to-server key'), h('div', { class: 'row' }, keyAccount), pem,
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Register')), keyStatus));
    return out;
  } });

  CS.nav.push({ key: 'subscriptions', title: 'Subscriptions', when: () => !session.isAPI, href: () => route('subscriptions', session.env, 'private') });
  CS.nav.push({ key: 'sharing', title: 'Sharing', when: () => !session.isAPI, href: () => route('sharing', session.env) });
  CS.nav.push({ key: 'operations', title: 'Operations', when: () => session.isAdmin, href: () => route('operations') });
  CS.parseMetrics = parseMetrics;
})();

"""#
}
