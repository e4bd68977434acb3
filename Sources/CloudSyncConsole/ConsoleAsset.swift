import CloudSyncHTTPServer

/// One file of the console's single-page app, held in the binary: its content type and text.
public struct ConsoleAsset: Sendable {
    public var contentType: String
    public var text: String

    /// The app's files by name (the part of the path after `/console/`).
    public static let all: [String: ConsoleAsset] = [
        "index.html": ConsoleAsset(contentType: "text/html; charset=utf-8", text: ConsoleIndexHTML.text),
        "console.css": ConsoleAsset(contentType: "text/css; charset=utf-8", text: ConsoleStylesheet.text),
        "core.js": ConsoleAsset(contentType: "text/javascript; charset=utf-8", text: ConsoleCoreScript.text),
        "data.js": ConsoleAsset(contentType: "text/javascript; charset=utf-8", text: ConsoleDataScript.text),
        "schema.js": ConsoleAsset(contentType: "text/javascript; charset=utf-8", text: ConsoleSchemaScript.text),
        "operations.js": ConsoleAsset(contentType: "text/javascript; charset=utf-8", text: ConsoleOperationsScript.text),
    ]

    /// The policy of every console reply: scripts, styles, images and connections from this
    /// server only (no inline script or style, no `eval`), no framing, no plugins, forms posting
    /// nowhere. Asset downloads are links the browser follows, not fetches.
    public static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    /// The headers every console reply carries (the app's files and its redirect).
    public static func securityHeaders() -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add("Content-Security-Policy", contentSecurityPolicy)
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("X-Frame-Options", "DENY")
        headers.add("Referrer-Policy", "no-referrer")
        headers.add("Cache-Control", "no-cache")
        return headers
    }

    /// The reply to `GET /console/NAME`: the file, or 404 in plain text.
    public static func response(named name: String, method: String) -> HTTPResponse {
        var headers = securityHeaders()
        guard method == "GET" || method == "HEAD" else {
            headers.add("Allow", "GET, HEAD")
            headers.add("Content-Type", "text/plain; charset=utf-8")
            return HTTPResponse(status: 405, headers: headers, body: Array("the console answers GET only\n".utf8))
        }
        guard let asset = all[name] else {
            headers.add("Content-Type", "text/plain; charset=utf-8")
            return HTTPResponse(status: 404, headers: headers, body: Array("no such console file\n".utf8))
        }
        headers.add("Content-Type", asset.contentType)
        return HTTPResponse(status: 200, headers: headers, body: method == "HEAD" ? [] : Array(asset.text.utf8))
    }

    /// `/console` → `/console/` (relative, so that it works behind a proxy's path too).
    public static func redirect() -> HTTPResponse {
        var headers = securityHeaders()
        headers.add("Location", ConsoleRoute.prefix)
        return HTTPResponse(status: 308, headers: headers)
    }
}
