import CloudSyncOTP
import Testing

@Suite("Query matching")
struct QueryTests {
    typealias L = OTPQuery.Labels
    let tokens = [
        L(name: "GitHub", issuer: "GitHub", account: "alice"),
        L(name: "GitHub:work", issuer: "GitHub", account: "alice-corp"),
        L(name: "Google:alice@gmail.com", issuer: "Google", account: "alice@gmail.com"),
        L(name: "Google:bob@gmail.com", issuer: "Google", account: "bob@gmail.com"),
        L(name: "vpn", issuer: "", account: ""),
        L(name: "AWS root", issuer: "Amazon Web Services", account: "root"),
    ]

    func find(_ query: String) -> String {
        switch OTPQuery.match(query, in: tokens, labels: { $0 }) {
        case .match(let labels): labels.name
        case .none: "none"
        case .ambiguous(let all): "ambiguous:" + all.map(\.name).joined(separator: ",")
        }
    }

    @Test func exactMatchesWinInOrder() {
        #expect(find("GitHub") == "GitHub", "the exact name beats the exact issuer of GitHub:work")
        #expect(find("GitHub:alice-corp") == "GitHub:work", "issuer:account")
        #expect(find("vpn") == "vpn")
        #expect(find("Google") == "ambiguous:Google:alice@gmail.com,Google:bob@gmail.com", "one issuer, two accounts")
        #expect(find("Google:bob@gmail.com") == "Google:bob@gmail.com")
    }

    @Test func caseInsensitiveThenSubstring() {
        #expect(find("github") == "GitHub", "the name ignoring case beats substrings")
        #expect(find("VPN") == "vpn")
        #expect(find("bob") == "Google:bob@gmail.com")
        #expect(find("web serv") == "AWS root", "part of the issuer")
        #expect(find("alice") == "ambiguous:GitHub,GitHub:work,Google:alice@gmail.com")
        #expect(find("nothing-like-it") == "none")
        #expect(find("") == "none")
    }
}
