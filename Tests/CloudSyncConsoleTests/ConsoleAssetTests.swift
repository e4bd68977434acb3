import CloudSyncConsole
import CloudSyncHTTPServer
import Testing

/// The console's files as held in the binary: each answered with the policy, and none written
/// in a way that could turn data into markup or code.
@Suite("the console's files")
struct ConsoleAssetTests {
    @Test func everyFileCarriesThePolicyAndATypeBrowsersWillNotSniff() {
        for name in ConsoleAsset.all.keys {
            let response = ConsoleAsset.response(named: name, method: "GET")
            #expect(response.status == 200, "\(name)")
            #expect(response.headers["Content-Security-Policy"] == ConsoleAsset.contentSecurityPolicy)
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
            #expect(response.headers["Content-Type"]?.hasSuffix("charset=utf-8") == true, "\(name)")
            #expect(response.headers["Set-Cookie"] == nil)
        }
        let policy = ConsoleAsset.contentSecurityPolicy
        #expect(policy.contains("script-src 'self';") && policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe"), "no inline script or eval")
        #expect(ConsoleAsset.response(named: "../Package.swift", method: "GET").status == 404)
        #expect(ConsoleAsset.response(named: "index.html", method: "HEAD").body.isEmpty)
    }

    /// The scripts never build markup from strings nor run strings as code: every value from the
    /// server becomes a text node (`CS.h`); the page has no inline script or style attribute.
    @Test func noScriptWritesMarkupOrEvaluatesText() {
        let banned = ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                      "setTimeout('", "setTimeout(\"", ".style.", "cookie", "localStorage"]
        for (name, asset) in ConsoleAsset.all where name.hasSuffix(".js") {
            for word in banned { #expect(!asset.text.contains(word), "\(name) uses \(word)") }
        }
        let page = ConsoleAsset.all["index.html"]?.text ?? ""
        #expect(!page.contains("<script>") && !page.contains("style=") && !page.contains(" on"), "\(page)")
        let total = ConsoleAsset.all.values.reduce(0) { $0 + $1.text.split(separator: "\n").count }
        #expect(total < 3000, "a few thousand lines at most: \(total)")
    }

    @Test func routes() {
        #expect(ConsoleRoute(path: "/console/") == .asset("index.html"))
        #expect(ConsoleRoute(path: "/console") == .redirect)
        #expect(ConsoleRoute(path: "/metrics") == .metrics)
        #expect(ConsoleRoute(path: "/admin/1/credentials/list") == .operation("credentials/list"))
        #expect(ConsoleRoute(path: "/database/1/C/development/private/zones/list") == nil)
        #expect(ConsoleRoute(path: "/consoles") == nil)
        #expect(ConsoleRoute(path: "/metrics")?.needsCredential == true)
        #expect(ConsoleRoute(path: "/console/core.js")?.needsCredential == false)
    }
}
