/// The console's schema script (`/console/schema.js`): an environment's schema as a table and
/// as .ckdb text (`schema/export`), the change from production to development and what would
/// refuse a deploy (`schema/deploy` with `dryRun`), deploy, import and reset of development.
enum ConsoleSchemaScript {
    static let text = #"""
'use strict';
(function () {
  const { h, add, clear, route, table, banner, toast, session, api, describe } = CS;

  // The .ckdb text as {roles, types: [{name, fields: [{name, type, indexes}], grants: [text]}]}.
  function parseSchema(text) {
    const out = { roles: [], types: [] };
    const unquote = (s) => s.replace(/^"(.*)"$/, '$1');
    const roleRE = /CREATE\s+ROLE\s+("[^"]*"|[^\s;]+)\s*;/gi;
    let m;
    while ((m = roleRE.exec(text)) !== null) out.roles.push(unquote(m[1]));
    const typeRE = /RECORD\s+TYPE\s+("[^"]*"|[^\s(]+)\s*\(([\s\S]*?)\)\s*;/gi;
    while ((m = typeRE.exec(text)) !== null) {
      const type = { name: unquote(m[1]), fields: [], grants: [] };
      for (const raw of m[2].split(/,\s*\n/)) {
        const item = raw.trim().replace(/,$/, '');
        if (!item) continue;
        if (/^GRANT\s/i.test(item)) { type.grants.push(item); continue; }
        const f = /^("[^"]*"|\S+)\s+(LIST\s*<\s*\w+\s*>|\w+)\s*(.*)$/i.exec(item);
        if (f) type.fields.push({ name: unquote(f[1]), type: f[2].replace(/\s+/g, ''), indexes: f[3].trim() });
      }
      out.types.push(type);
    }
    return out;
  }
  function schemaTable(schema) {
    if (!schema.types.length) return h('p', { class: 'muted', id: 'schema-empty' }, 'No record types.');
    const rows = [];
    for (const t of schema.types) {
      t.fields.forEach((f, i) => rows.push(h('tr', null, h('td', null, i === 0 ? h('b', null, t.name) : ''), h('td', null, f.name),
        h('td', { class: 'mono' }, f.type), h('td', null, f.indexes))));
      if (!t.fields.length) rows.push(h('tr', null, h('td', null, h('b', null, t.name)), h('td', { class: 'muted' }, '(no fields)'), h('td'), h('td')));
      for (const g of t.grants) rows.push(h('tr', null, h('td', null, t.fields.length ? '' : ''), h('td', { class: 'muted' }, 'grant'), h('td', { colspan: '2', class: 'mono' }, g.replace(/^GRANT\s+/i, ''))));
    }
    return table(['Record type', 'Field', 'Type', 'Indexes'], rows, { id: 'schema-table' });
  }
  function changeList(items, id) {
    if (!items || !items.length) return h('p', { class: 'muted', id }, 'None.');
    return h('ul', { id }, items.map((c) => h('li', null, c.text || JSON.stringify(c))));
  }

  CS.views.push({ key: 'schema', render: async (parts) => {
    const env = parts[0] || session.env;
    const exported = await api.call(env, 'private', 'schema/export', {});
    const text = exported.schema || '';
    const schema = parseSchema(text);
    const out = h('div', null, h('h1', null, 'Schema of ' + session.container),
      CS.envTabs(env, (e) => route('schema', e)),
      schema.roles.length ? h('p', null, 'Roles: ', schema.roles.join(', ')) : null,
      schemaTable(schema),
      h('h2', null, '.ckdb text'), h('pre', { id: 'ckdb' }, text || '(empty)'));
    // The change a deploy would make (production → development), and what would refuse it.
    const diffBox = h('div', { id: 'diff' });
    const deployStatus = h('div', { id: 'deploy-status' });
    const wider = h('input', { type: 'checkbox', id: 'allow-wider' });
    async function loadDiff() {
      clear(diffBox);
      const check = await api.call('development', 'private', 'schema/deploy', { dryRun: true, allowWiderGrants: wider.checked });
      add(diffBox, h('h2', null, 'Development compared with production'), changeList(check.changes, 'diff-changes'),
        check.violations && check.violations.length ? [h('h2', null, 'Violations (a deploy would be refused)'), changeList(check.violations, 'diff-violations')] : null,
        check.widerGrants && check.widerGrants.length ? [h('h2', null, 'Grants that widen production'), changeList(check.widerGrants, 'diff-wider')] : null);
    }
    out.appendChild(h('div', { class: 'card' }, diffBox,
      h('div', { class: 'row' }, h('label', { class: 'inline' }, wider, 'allow wider grants'),
        h('button', { type: 'button', class: 'primary', id: 'deploy', onclick: async () => {
          clear(deployStatus);
          if (!window.confirm('Deploy the development schema to production?')) return;
          try {
            const check = await api.call('development', 'private', 'schema/deploy', { dryRun: false, allowWiderGrants: wider.checked });
            if (check.deployed) { deployStatus.appendChild(banner('ok', 'Deployed to production.')); await loadDiff(); }
            else deployStatus.appendChild(banner('bad', 'Deploy refused:\n' + (check.violations || []).concat(check.widerGrants || []).map((v) => '• ' + v.text).join('\n')));
          } catch (e) { deployStatus.appendChild(banner('bad', describe(e))); }
        } }, 'Deploy to production')),
      deployStatus));
    // Import (development only) and reset.
    if (env === 'development') {
      const area = h('textarea', { rows: 6, id: 'import-text', placeholder: 'DEFINE SCHEMA\n    RECORD TYPE Note (title STRING QUERYABLE);' }, text);
      const importStatus = h('div', { id: 'import-status' });
      const run = async (dryRun) => {
        clear(importStatus);
        try {
          const diff = await api.call('development', 'private', 'schema/import', { schema: area.value, dryRun });
          importStatus.appendChild(banner(dryRun ? 'warn' : 'ok', (dryRun ? 'Would change:\n' : 'Imported:\n') + ((diff.changes || []).map((c) => '• ' + c.text).join('\n') || 'nothing')));
          if (!dryRun) toast('Schema imported');
        } catch (e) { importStatus.appendChild(banner('bad', describe(e))); }
      };
      out.appendChild(h('div', { class: 'card' }, h('h2', null, 'Import into development'), area,
        h('div', { class: 'row' }, h('button', { type: 'button', onclick: () => run(true) }, 'Preview'),
          h('button', { type: 'button', class: 'primary', id: 'import', onclick: () => run(false) }, 'Import')), importStatus));
      const resetStatus = h('div', { id: 'reset-status' });
      out.appendChild(h('div', { class: 'card' }, h('h2', null, 'Reset development'),
        h('p', { class: 'muted' }, 'Deletes the development schema and every development zone and record, of every account.'),
        h('button', { type: 'button', class: 'danger', id: 'reset', onclick: async () => {
          if (!CS.confirmTyped('Reset the development environment of ' + session.container + '?', 'reset')) return;
          try {
            await api.call('development', 'private', 'schema/reset', {});
            toast('Development reset');
            CS.render();
          } catch (e) { clear(resetStatus).appendChild(banner('bad', describe(e))); }
        } }, 'Reset development…'), resetStatus));
    }
    await loadDiff().catch((e) => diffBox.appendChild(banner('bad', describe(e))));
    return out;
  } });
  CS.nav.push({ key: 'schema', title: 'Schema', when: () => !session.isAPI, href: () => route('schema', session.env) });
  CS.parseSchema = parseSchema;
})();

"""#
}
