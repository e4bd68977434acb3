/// Python source shared by the tests' standard-library clients (`python3 -c SCRIPT`).
public enum PythonHTTPClient {
    /// `call(url, body=None, token=None, headers=None, raw=False)` → `(status, JSON or bytes)`:
    /// a GET without a body, else a POST of bytes or of `body` as JSON, with a bearer `token`;
    /// an HTTP error's body is read as JSON. Needs `import json, urllib.request, urllib.error`.
    public static let call = #"""
def call(url, body=None, token=None, headers=None, raw=False):
    h = dict(headers or {})
    if token: h["Authorization"] = "Bearer " + token
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST", headers=h)
    try:
        with urllib.request.urlopen(request) as reply:
            content = reply.read()
            return reply.status, content if raw else json.loads(content)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
"""#
}
