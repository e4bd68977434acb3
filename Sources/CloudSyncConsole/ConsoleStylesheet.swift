/// The console's style sheet (`/console/console.css`): one column on a phone, wide tables
/// scroll inside their own box.
enum ConsoleStylesheet {
    static let text = #"""
:root { --fg: #1d2330; --muted: #5d6675; --line: #d9dee6; --bg: #f5f7fa; --card: #fff; --accent: #1f6feb;
  --bad: #b42318; --badbg: #fdecea; --ok: #116b3a; --okbg: #e7f6ec; --warn: #8a5a00; --warnbg: #fff6e0;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; color: var(--fg); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
#top { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 18px; padding: 10px 18px; background: #0f1724; color: #fff; }
#brand { color: #fff; font-weight: 700; font-size: 17px; }
#brand span { font-weight: 400; color: #9fb3c8; }
#nav { display: flex; flex-wrap: wrap; gap: 4px; flex: 1; }
#nav a { color: #c8d3df; padding: 5px 10px; border-radius: 6px; }
#nav a.here, #nav a:hover { background: #24324a; color: #fff; text-decoration: none; }
#who { display: flex; align-items: center; gap: 10px; color: #c8d3df; font-size: 13px; }
#who button { background: transparent; color: #fff; border-color: #4a5b75; }
main { padding: 18px; max-width: 1200px; margin: 0 auto; outline: none; }
h1 { font-size: 21px; margin: 4px 0 14px; word-break: break-word; }
h2 { font-size: 17px; margin: 20px 0 8px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 0 0 14px; }
.muted { color: var(--muted); }
.crumbs { font-size: 13px; margin-bottom: 6px; color: var(--muted); word-break: break-all; }
.crumbs a { margin: 0 2px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.grow { flex: 1; min-width: 160px; }
label { font-size: 13px; color: var(--muted); display: flex; flex-direction: column; gap: 3px; }
label.inline { flex-direction: row; align-items: center; gap: 6px; color: var(--fg); }
input, select, textarea, button { font: inherit; font-size: 14px; padding: 6px 9px; border: 1px solid #b9c2cf; border-radius: 6px;
  background: #fff; color: var(--fg); max-width: 100%; }
textarea { width: 100%; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
button { cursor: pointer; background: #eef2f7; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
button:disabled { opacity: .5; cursor: default; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 7px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef2f7; font-weight: 600; white-space: nowrap; }
tr:last-child td { border-bottom: 0; }
td.value { white-space: pre-wrap; word-break: break-word; max-width: 520px; }
td.mono, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; word-break: break-all; }
.tag { display: inline-block; font-size: 12px; padding: 1px 7px; border-radius: 10px; background: #e8edf5; color: #33435c; }
.tag.admin { background: #fde8c8; color: #7a4100; }
.banner { padding: 10px 14px; border-radius: 8px; margin: 10px 0; white-space: pre-wrap; word-break: break-word; }
.banner.bad { background: var(--badbg); color: var(--bad); border: 1px solid #f4b4ad; }
.banner.ok { background: var(--okbg); color: var(--ok); border: 1px solid #a8dcb9; }
.banner.warn { background: var(--warnbg); color: var(--warn); border: 1px solid #f0d290; }
pre { background: #0f1724; color: #e6edf3; padding: 12px; border-radius: 8px; overflow-x: auto; font-size: 12.5px; white-space: pre; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 10px; }
.zone { display: block; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; word-break: break-all; }
.zone b { display: block; font-size: 15px; }
.tabs { display: flex; flex-wrap: wrap; gap: 4px; margin: 4px 0 12px; }
.tabs a { padding: 5px 11px; border-radius: 6px; border: 1px solid var(--line); background: var(--card); }
.tabs a.here { background: var(--accent); color: #fff; border-color: var(--accent); }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 5px 14px; margin: 0; }
dl.kv dt { color: var(--muted); font-size: 13px; }
dl.kv dd { margin: 0; word-break: break-all; }
.fieldrow { display: grid; grid-template-columns: minmax(110px, 1fr) minmax(120px, 150px) 2fr auto; gap: 6px; align-items: start; margin: 6px 0; }
.stat { font-size: 24px; font-weight: 650; }
#toast { position: fixed; right: 16px; bottom: 16px; max-width: min(420px, calc(100vw - 32px)); pointer-events: none; }
#toast div { background: #0f1724; color: #fff; padding: 9px 13px; border-radius: 8px; margin-top: 6px; word-break: break-word; }
.signin { max-width: 520px; margin: 40px auto; }
.feed { max-height: 360px; overflow-y: auto; }
@media (max-width: 640px) {
  main { padding: 12px; }
  #top { padding: 8px 12px; }
  #who { margin-left: auto; }
  #who .tag[title=container] { display: none; }
  #nav { order: 3; flex: 1 1 100%; flex-wrap: nowrap; overflow-x: auto; }
  #nav a { white-space: nowrap; }
  .fieldrow { grid-template-columns: 1fr 1fr; }
  .fieldrow .wide { grid-column: 1 / -1; }
  td.value { max-width: 240px; }
  th, td { padding: 6px 7px; }
  .hide-narrow { display: none; }
}
"""#
}
