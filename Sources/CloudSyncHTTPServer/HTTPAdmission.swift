/// What a handler decided about a request from its head alone (`HTTPHandler.admission`).
public enum HTTPAdmission: Sendable {
    /// Sent at once, the connection closed and the body unread.
    case refused(HTTPResponse)
    /// The body is read and the request handled; `note` (what judging the head learned, such
    /// as the credential it looked up) reaches `handle` as `HTTPRequest.admissionNote`.
    case admitted(note: (any Sendable)?)
}
