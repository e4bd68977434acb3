/// The console's page (`/console/`): a frame the scripts fill in. It holds no data and no
/// inline script or style (the Content-Security-Policy forbids both).
enum ConsoleIndexHTML {
    static let text = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>cloudsync console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="console.css">
<script src="core.js" defer></script>
<script src="data.js" defer></script>
<script src="schema.js" defer></script>
<script src="operations.js" defer></script>
</head>
<body>
<header id="top">
  <a id="brand" href="#/">cloudsync <span>console</span></a>
  <nav id="nav" aria-label="Sections"></nav>
  <div id="who"></div>
</header>
<main id="view" tabindex="-1"><p class="muted">Loading…</p></main>
<div id="toast" role="status" aria-live="polite"></div>
<noscript>The console needs JavaScript; the command line (cloudsync --cloud URL …) does not.</noscript>
</body>
</html>

"""#
}
