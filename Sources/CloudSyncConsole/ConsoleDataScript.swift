/// The console's data script (`/console/data.js`): the account and databases, zones, a zone's
/// records (paged by continuation markers and sync tokens) with the query builder, one record's
/// typed and system fields, and the record editor whose saves carry the change tag (a stale
/// save shows the conflict and offers the server's version).
enum ConsoleDataScript {
    static let text = #"""
'use strict';
(function () {
  const { h, add, clear, route, link, table, banner, toast, when, bytes, session, api, describe } = CS;
  const ENVS = ['development', 'production'];
  const DBS = ['private', 'shared', 'public'];
  const TYPES = ['STRING', 'INT64', 'DOUBLE', 'TIMESTAMP', 'BYTES', 'REFERENCE', 'LOCATION',
    'STRING_LIST', 'INT64_LIST', 'DOUBLE_LIST', 'TIMESTAMP_LIST', 'REFERENCE_LIST'];

  function dbsFor() { return session.isAPI ? ['public'] : DBS; }
  function crumbs(env, db, zone, record) {
    const items = [h('span', null, session.container), ' › ', link(env, 'data', env, db)];
    items.push(' › ', link(db, 'data', env, db));
    if (zone !== undefined) items.push(' › ', link(zone, 'zone', env, db, zone));
    if (record !== undefined) items.push(' › ', h('span', null, record));
    return h('div', { class: 'crumbs' }, items);
  }
  function tabs(current, items) {
    return h('div', { class: 'tabs' }, items.map(([text, href]) => {
      const a = h('a', { href }, text);
      if (text === current) a.className = 'here';
      return a;
    }));
  }
  function envTabs(env, make) { return tabs(env, ENVS.map((e) => [e, make(e)])); }

  // ---- values ----
  function zoneBody(zone, db) {
    const zoneID = { zoneName: zone };
    return zoneID;
  }
  function refLink(env, db, value) {
    const zone = (value.zoneID && value.zoneID.zoneName) || '_defaultZone';
    return h('a', { href: route('record', env, db, zone, value.recordName), class: 'ref' }, value.recordName);
  }
  function showValue(env, db, type, value) {
    if (value === null || value === undefined) return h('span', { class: 'muted' }, '(none)');
    const base = String(type || '').replace(/_LIST$/, '');
    if (Array.isArray(value)) {
      return h('span', null, value.map((item, i) => [i ? ', ' : '', showValue(env, db, base, item)]));
    }
    switch (base) {
      case 'REFERENCE': return typeof value === 'object' ? refLink(env, db, value) : String(value);
      case 'TIMESTAMP': return h('span', { title: String(value) }, when(value));
      case 'ASSETID': {
        const size = value.size !== undefined ? ' (' + bytes(value.size) + ')' : '';
        if (value.downloadURL) {
          const url = String(value.downloadURL).replace('${f}', 'asset');
          return h('a', { href: url, download: 'asset', class: 'asset', rel: 'noopener noreferrer' }, 'download' + size);
        }
        return h('span', null, 'asset ' + (value.fileChecksum || '') + size);
      }
      case 'LOCATION': return String(value.latitude) + ', ' + String(value.longitude);
      case 'BYTES': case 'ENCRYPTED_BYTES': return h('span', { class: 'mono' }, String(value).slice(0, 120));
      default: return typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
  }
  function summary(record) {
    const fields = record.fields || {};
    return Object.keys(fields).slice(0, 3).map((name, i) => {
      const f = fields[name];
      const v = f && f.value;
      const text = v !== null && typeof v === 'object' ? (v.recordName || JSON.stringify(v)) : String(v);
      return (i ? '; ' : '') + name + '=' + (text.length > 60 ? text.slice(0, 60) + '…' : text);
    }).join('');
  }
  function recordRows(env, db, zone, records) {
    return records.map((r) => r.deleted
      ? h('tr', null, h('td', { class: 'mono' }, r.recordName), h('td', { class: 'muted' }, '(deleted)'), h('td'), h('td', { class: 'hide-narrow' }), h('td', { class: 'hide-narrow' }))
      : h('tr', null,
        h('td', { class: 'mono' }, h('a', { href: route('record', env, db, zone, r.recordName) }, r.recordName)),
        h('td', null, r.recordType),
        h('td', { class: 'value' }, summary(r)),
        h('td', { class: 'hide-narrow' }, when(r.modified && r.modified.timestamp)),
        h('td', { class: 'mono hide-narrow' }, r.recordChangeTag || '')));
  }
  function recordTable(env, db, zone, records) {
    return table(['Name', 'Type', 'Fields', h('span', { class: 'hide-narrow' }, 'Modified'), h('span', { class: 'hide-narrow' }, 'Change tag')],
      recordRows(env, db, zone, records), { id: 'records' });
  }

  // ---- home: the account and the private database's zones ----
  CS.views.push({ key: 'home', render: async () => {
    const env = session.env;
    const db = session.isAPI ? 'public' : 'private';
    const zones = await api.call(env, db, 'zones/list', {});
    const card = h('div', { class: 'card' },
      h('h1', null, session.isAPI ? 'Public view' : 'Signed in'),
      h('dl', { class: 'kv' },
        h('dt', null, 'Account'), h('dd', { id: 'home-account' }, session.account),
        session.userRecordName ? [h('dt', null, 'User record'), h('dd', { class: 'mono' }, session.userRecordName)] : null,
        h('dt', null, 'Role'), h('dd', null, session.role),
        h('dt', null, 'Container'), h('dd', null, session.container)));
    const envSwitch = h('div', { class: 'tabs' }, ENVS.map((e) => h('a', { href: '#/', class: e === env ? 'here' : null,
      onclick: (ev) => { ev.preventDefault(); session.set('env', e); CS.render(); } }, e)));
    return h('div', null, card, envSwitch,
      h('h2', null, 'Zones of the ' + db + ' database (' + env + ')'),
      zoneGrid(env, db, zones.zones || []),
      h('p', null, dbsFor().map((d, i) => [i ? ' · ' : '', link(d + ' database', 'data', env, d)])));
  } });
  function zoneGrid(env, db, zones) {
    if (!zones.length) return h('p', { class: 'muted' }, 'No zones.');
    return h('div', { class: 'grid', id: 'zones' }, zones.map((z) => {
      const name = z.zoneID ? z.zoneID.zoneName : z.zoneName;
      return h('a', { class: 'zone', href: route('zone', env, db, name) }, h('b', null, name),
        h('span', { class: 'muted' }, (z.recordCount !== undefined ? z.recordCount + ' records' : '') +
          (z.zoneID && z.zoneID.ownerRecordName && db === 'shared' ? ' · owner ' + z.zoneID.ownerRecordName : '')));
    }));
  }

  // ---- a database: its zones, create and delete ----
  CS.views.push({ key: 'data', render: async (parts) => {
    const env = parts[0] || session.env;
    const db = parts[1] || (session.isAPI ? 'public' : 'private');
    const zones = (await api.call(env, db, 'zones/list', {})).zones || [];
    const out = h('div', null, crumbs(env, db), h('h1', null, db + ' database'),
      envTabs(env, (e) => route('data', e, db)), tabs(db, dbsFor().map((d) => [d, route('data', env, d)])));
    out.appendChild(zoneGrid(env, db, zones));
    if (!session.isAPI && db === 'private') {
      const name = h('input', { id: 'new-zone', placeholder: 'zone name', class: 'grow' });
      const status = h('div');
      out.appendChild(h('form', { class: 'card', id: 'zone-create', onsubmit: async (ev) => {
        ev.preventDefault();
        clear(status);
        try {
          await api.call(env, db, 'zones/modify', { operations: [{ operationType: 'create', zone: { zoneID: { zoneName: name.value.trim() } } }] });
          toast('Zone ' + name.value.trim() + ' created');
          CS.render();
        } catch (e) { status.appendChild(banner('bad', describe(e))); }
      } }, h('h2', null, 'New zone'), h('div', { class: 'row' }, name, h('button', { class: 'primary', type: 'submit' }, 'Create zone')), status));
      if (zones.length) {
        const pick = h('select', { id: 'delete-zone' }, zones.map((z) => h('option', null, z.zoneID.zoneName)).filter((o) => o.textContent !== '_defaultZone'));
        if (pick.options.length) {
          out.appendChild(h('div', { class: 'card' }, h('h2', null, 'Delete a zone'),
            h('p', { class: 'muted' }, 'Deletes the zone and every record in it.'),
            h('div', { class: 'row' }, pick, h('button', { class: 'danger', type: 'button', id: 'delete-zone-button', onclick: async () => {
              const zone = pick.value;
              if (!CS.confirmTyped('Delete zone ' + zone + ' and all its records?', zone)) return;
              try {
                await api.call(env, db, 'zones/modify', { operations: [{ operationType: 'delete', zone: { zoneID: { zoneName: zone } } }] });
                toast('Zone ' + zone + ' deleted');
                CS.render();
              } catch (e) { toast(describe(e)); }
            } }, 'Delete…'))));
        }
      }
    }
    return out;
  } });

  // ---- a zone: its records, paged, and the query builder ----
  CS.views.push({ key: 'zone', render: async (parts) => {
    const [env, db, zone] = parts;
    const out = h('div', null, crumbs(env, db, zone), h('h1', null, 'Zone ' + zone));
    if (!session.isAPI) {
      out.appendChild(h('div', { class: 'row' }, h('a', { href: route('new', env, db, zone), id: 'new-record' }, '+ New record')));
    }
    const results = h('div', { id: 'results' });
    const more = h('div', { class: 'row' });
    const status = h('div', { id: 'query-status' });
    const type = h('input', { id: 'q-type', placeholder: 'record type (e.g. Note)' });
    const predicate = h('input', { id: 'q-predicate', class: 'grow', placeholder: 'predicate, e.g. title BEGINSWITH "Hi" AND count > 2' });
    const sort = h('input', { id: 'q-sort', placeholder: 'sort field' });
    const order = h('select', { id: 'q-order' }, h('option', { value: 'asc' }, 'ascending'), h('option', { value: 'desc' }, 'descending'));
    const size = h('select', { id: 'q-limit' }, [50, 100, 200].map((n) => h('option', { value: String(n) }, n + ' per page')));
    const timing = h('span', { class: 'muted', id: 'render-time' });
    let shown = [];

    function show(records, append) {
      const started = performance.now();
      shown = append ? shown.concat(records) : records;
      clear(results).appendChild(shown.length ? recordTable(env, db, zone, shown) : h('p', { class: 'muted' }, 'No records.'));
      timing.textContent = shown.length + (shown.length === 1 ? ' record' : ' records') + ' · rendered in ' + Math.round(performance.now() - started) + ' ms';
      results.dataset.count = String(shown.length);
    }
    async function browse(token, append) {
      clear(status);
      const body = { zoneID: zoneBody(zone, db), resultsLimit: Number(size.value) };
      if (token) body.syncToken = token;
      let page;
      if (session.isAPI || db === 'public') {
        page = null;  // the public database has no zone changes feed: use the query builder
      } else {
        page = await api.call(env, db, 'records/changes', body);
      }
      clear(more);
      if (!page) { clear(results).appendChild(h('p', { class: 'muted' }, 'Run a query to list records of a type.')); return; }
      show((page.records || []).filter((r) => !r.deleted), append);
      if (page.moreComing) {
        more.appendChild(h('button', { type: 'button', id: 'next-page', onclick: () => browse(page.syncToken, true).catch(fail) }, 'Load more'));
      }
    }
    async function query(marker, append) {
      const asked = performance.now();
      clear(status);
      const q = { recordType: type.value.trim() };
      if (predicate.value.trim()) q.predicate = predicate.value.trim();
      if (sort.value.trim()) q.sortBy = [{ fieldName: sort.value.trim(), ascending: order.value === 'asc' }];
      const body = { zoneID: zoneBody(zone, db), query: q, resultsLimit: Number(size.value) };
      if (marker) body.continuationMarker = marker;
      const page = await api.call(env, db, 'records/query', body);
      show(page.records || [], append);
      results.dataset.ms = String(Math.round(performance.now() - asked));  // the call and the rendering
      clear(more);
      if (page.continuationMarker) {
        more.appendChild(h('button', { type: 'button', id: 'next-page', onclick: () => query(page.continuationMarker, true).catch(fail) }, 'Next page'));
      }
    }
    function fail(e) { clear(status).appendChild(banner('bad', describe(e))); }
    const form = h('form', { class: 'card', id: 'query', onsubmit: (ev) => {
      ev.preventDefault();
      if (!type.value.trim()) { browse(null, false).catch(fail); return; }
      query(null, false).catch(fail);
    } }, h('h2', null, 'Query'),
      h('div', { class: 'row' }, h('label', null, 'Type', type), h('label', { class: 'grow' }, 'Predicate', predicate)),
      h('div', { class: 'row' }, h('label', null, 'Sort by', sort), h('label', null, 'Order', order), h('label', null, 'Page', size),
        h('button', { class: 'primary', type: 'submit', id: 'run-query' }, 'Run'), timing),
      h('p', { class: 'muted' }, 'Leave the type empty to list every record of the zone (its change feed).'));
    add(out, form, status, results, more);
    await browse(null, false);
    return out;
  } });

  // ---- one record ----
  async function lookup(env, db, zone, name) {
    const reply = await api.call(env, db, 'records/lookup', { zoneID: zoneBody(zone, db), records: [{ recordName: name }] });
    const record = (reply.records || [])[0];
    if (!record || record.serverErrorCode) throw new CS.APIError(404, record || null, 'no record ' + name);
    return record;
  }
  function fieldsTable(env, db, record) {
    const fields = record.fields || {};
    const names = Object.keys(fields).sort();
    if (!names.length) return h('p', { class: 'muted' }, 'No fields.');
    return table(['Field', 'Type', 'Value'], names.map((n) => h('tr', null,
      h('td', null, n), h('td', { class: 'mono' }, fields[n].type || ''), h('td', { class: 'value' }, showValue(env, db, fields[n].type, fields[n].value)))),
    { id: 'fields' });
  }
  function systemFields(record) {
    const stamp = (s) => s ? when(s.timestamp) + ' by ' + (s.userRecordName || '?') + ' on ' + (s.deviceID || '?') : '';
    return h('dl', { class: 'kv', id: 'system-fields' },
      h('dt', null, 'recordName'), h('dd', { class: 'mono' }, record.recordName),
      h('dt', null, 'recordType'), h('dd', null, record.recordType || ''),
      h('dt', null, 'zone'), h('dd', null, (record.zoneID && record.zoneID.zoneName) || ''),
      h('dt', null, 'change tag'), h('dd', { class: 'mono', id: 'change-tag' }, record.recordChangeTag || ''),
      h('dt', null, 'created'), h('dd', null, stamp(record.created)),
      h('dt', null, 'modified'), h('dd', null, stamp(record.modified)));
  }
  CS.views.push({ key: 'record', render: async (parts) => {
    const [env, db, zone, name] = parts;
    const record = await lookup(env, db, zone, name);
    const out = h('div', null, crumbs(env, db, zone, name), h('h1', null, record.recordType + ' ' + name),
      h('div', { class: 'card' }, systemFields(record)), h('h2', null, 'Fields'), fieldsTable(env, db, record));
    if (!session.isAPI) {
      add(out, h('div', { class: 'row' },
        h('a', { href: route('edit', env, db, zone, name), id: 'edit-record' }, 'Edit'),
        h('button', { type: 'button', class: 'danger', id: 'delete-record', onclick: async () => {
          if (!window.confirm('Delete record ' + name + '?')) return;
          try {
            const reply = await api.call(env, db, 'records/modify', { zoneID: zoneBody(zone, db), operations: [{ operationType: 'forceDelete', record: { recordName: name } }] });
            const item = (reply.records || [])[0] || {};
            if (item.serverErrorCode) throw new CS.APIError(409, item, '');
            toast('Deleted ' + name);
            window.location.hash = route('zone', env, db, zone);
          } catch (e) { toast(describe(e)); }
        } }, 'Delete')));
    }
    return out;
  } });

  // ---- the editor ----
  function inputFor(type, value) {
    const base = type.replace(/_LIST$/, '');
    if (type.endsWith('_LIST')) return h('textarea', { rows: 2, class: 'f-value' }, value === undefined ? '[]' : JSON.stringify(value));
    if (base === 'TIMESTAMP') {
      const text = value === undefined ? '' : new Date(Number(value)).toISOString().slice(0, 23);
      return h('input', { type: 'datetime-local', step: '0.001', class: 'f-value', value: text });
    }
    if (base === 'INT64' || base === 'DOUBLE') return h('input', { type: 'number', step: base === 'INT64' ? '1' : 'any', class: 'f-value', value: value === undefined ? '' : String(value) });
    if (base === 'REFERENCE') return h('input', { class: 'f-value', placeholder: 'recordName', value: value ? value.recordName : '' });
    if (base === 'LOCATION') return h('input', { class: 'f-value', placeholder: 'latitude, longitude', value: value ? value.latitude + ', ' + value.longitude : '' });
    if (base === 'STRING') return h('textarea', { rows: 1, class: 'f-value' }, value === undefined ? '' : String(value));
    return h('input', { class: 'f-value', value: value === undefined ? '' : String(value) });
  }
  function parseValue(type, text, zone) {
    const base = type.replace(/_LIST$/, '');
    const one = (t, v) => {
      switch (t) {
        case 'INT64': { const n = Number(v); if (!Number.isInteger(n)) throw new Error('not an integer: ' + v); return n; }
        case 'DOUBLE': { const n = Number(v); if (v === '' || isNaN(n)) throw new Error('not a number: ' + v); return n; }
        case 'TIMESTAMP': { const n = typeof v === 'number' ? v : Date.parse(String(v).endsWith('Z') ? v : v + 'Z'); if (isNaN(n)) throw new Error('not a date: ' + v); return n; }
        case 'REFERENCE': return { recordName: typeof v === 'object' ? v.recordName : String(v).trim(), zoneID: { zoneName: zone }, action: 'NONE' };
        case 'LOCATION': { const [a, b] = String(v).split(',').map(Number); if (isNaN(a) || isNaN(b)) throw new Error('give latitude, longitude'); return { latitude: a, longitude: b }; }
        default: return String(v);
      }
    };
    if (type.endsWith('_LIST')) {
      const items = JSON.parse(text || '[]');
      if (!Array.isArray(items)) throw new Error(type + ' needs a JSON array');
      return items.map((v) => one(base, v));
    }
    return one(base, text);
  }
  function fieldRow(name, type, value, kept) {
    const nameInput = h('input', { class: 'f-name', placeholder: 'field', value: name || '' });
    const known = TYPES.includes(type);
    const typeSelect = h('select', { class: 'f-type', disabled: kept || null }, (known || !type ? TYPES : [type].concat(TYPES)).map((t) => h('option', { value: t }, t)));
    typeSelect.value = type || 'STRING';
    let valueBox = kept ? h('span', { class: 'muted f-kept' }, 'kept as is (' + type + ')') : inputFor(typeSelect.value, value);
    const row = h('div', { class: 'fieldrow' }, nameInput, typeSelect, h('div', { class: 'wide' }, valueBox),
      h('button', { type: 'button', title: 'remove the field', onclick: () => row.remove() }, '✕'));
    row._kept = kept ? value : undefined;
    typeSelect.addEventListener('change', () => {
      const fresh = inputFor(typeSelect.value, undefined);
      valueBox.replaceWith(fresh);
      valueBox = fresh;
    });
    return row;
  }
  function readFields(rows, zone) {
    const fields = {};
    for (const row of rows.children) {
      const name = row.querySelector('.f-name').value.trim();
      if (!name) continue;
      const type = row.querySelector('.f-type').value;
      if (row._kept !== undefined) { fields[name] = { value: row._kept, type }; continue; }
      const input = row.querySelector('.f-value');
      fields[name] = { value: parseValue(type, input.value, zone), type };
    }
    return fields;
  }
  function editor(env, db, zone, record) {
    const isNew = !record;
    const name = h('input', { id: 'e-name', value: record ? record.recordName : '', placeholder: 'record name (empty: a new UUID)', disabled: !isNew || null });
    const type = h('input', { id: 'e-type', value: record ? record.recordType : '', placeholder: 'record type', disabled: !isNew || null });
    const rows = h('div', { id: 'e-fields' });
    let changeTag = record ? record.recordChangeTag : null;
    function load(rec) {
      clear(rows);
      const fields = (rec && rec.fields) || {};
      for (const n of Object.keys(fields).sort()) {
        const f = fields[n];
        const editable = TYPES.includes(f.type);
        rows.appendChild(fieldRow(n, f.type, f.value, !editable));
      }
      if (!Object.keys(fields).length) rows.appendChild(fieldRow('', 'STRING', undefined, false));
    }
    load(record);
    const status = h('div', { id: 'save-status' });
    async function save(tag) {
      clear(status);
      let fields;
      try { fields = readFields(rows, zone); } catch (e) { status.appendChild(banner('bad', describe(e))); return; }
      const body = { recordType: type.value.trim(), fields };
      if (name.value.trim()) body.recordName = name.value.trim();
      if (tag) body.recordChangeTag = tag;
      const reply = await api.call(env, db, 'records/modify', { zoneID: zoneBody(zone, db), operations: [{ operationType: tag ? 'update' : 'create', record: body }] });
      const item = (reply.records || [])[0] || {};
      if (item.serverErrorCode === 'CONFLICT' || item.serverErrorCode === 'EXISTS') {
        conflict(item);
        return;
      }
      if (item.serverErrorCode) { status.appendChild(banner('bad', item.serverErrorCode + ': ' + (item.reason || ''))); return; }
      toast('Saved ' + item.recordName);
      window.location.hash = route('record', env, db, zone, item.recordName);
    }
    function conflict(item) {
      const server = item.serverRecord;
      const box = banner('warn', h('b', null, 'Conflict: '), item.reason || 'the record changed on the server since you opened it.');
      box.id = 'conflict';
      if (server) {
        add(box, h('h2', null, 'The server\'s version (change tag ', h('span', { class: 'mono' }, server.recordChangeTag || ''), ')'),
          fieldsTable(env, db, server),
          h('div', { class: 'row' },
            h('button', { type: 'button', id: 'take-server', onclick: () => { changeTag = server.recordChangeTag; load(server); clear(status); toast('Loaded the server\'s version'); } }, 'Use the server\'s version'),
            h('button', { type: 'button', class: 'danger', id: 'overwrite', onclick: () => save(server.recordChangeTag).catch((e) => status.appendChild(banner('bad', describe(e)))) }, 'Overwrite with mine')));
      }
      status.appendChild(box);
    }
    return h('form', { class: 'card', id: 'editor', onsubmit: (ev) => { ev.preventDefault(); save(changeTag).catch((e) => status.appendChild(banner('bad', describe(e)))); } },
      h('div', { class: 'row' }, h('label', { class: 'grow' }, 'Name', name), h('label', { class: 'grow' }, 'Type', type)),
      h('h2', null, 'Fields'), rows,
      h('div', { class: 'row' }, h('button', { type: 'button', id: 'add-field', onclick: () => rows.appendChild(fieldRow('', 'STRING', undefined, false)) }, '+ Field'),
        h('button', { type: 'submit', class: 'primary', id: 'save-record' }, isNew ? 'Create' : 'Save')),
      record ? h('p', { class: 'muted' }, 'Saving sends change tag ', h('span', { class: 'mono' }, changeTag || ''), ': if the record changed since, the server refuses and shows its version.') : null,
      status);
  }
  CS.views.push({ key: 'edit', render: async (parts) => {
    const [env, db, zone, name] = parts;
    const record = await lookup(env, db, zone, name);
    return h('div', null, crumbs(env, db, zone, name), h('h1', null, 'Edit ' + name), editor(env, db, zone, record));
  } });
  CS.views.push({ key: 'new', render: async (parts) => {
    const [env, db, zone] = parts;
    return h('div', null, crumbs(env, db, zone), h('h1', null, 'New record in ' + zone), editor(env, db, zone, null));
  } });

  CS.nav.push({ key: 'data', title: 'Data', href: () => route('data', session.env, session.isAPI ? 'public' : 'private') });
  Object.assign(CS, { envTabs, tabs, crumbs, showValue, ENVS });
})();

"""#
}
