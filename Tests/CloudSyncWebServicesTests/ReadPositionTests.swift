import CloudSyncCore
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer
import Testing

/// The position of `serve --read-replica` on the wire (issue 28): the `X-CloudSync-Position`
/// text and the `.HEX` suffix of change tokens, which every reader of a token drops.
@Suite("Read positions and positioned change tokens")
struct ReadPositionTests {
    @Test func positionsReadAndWriteAsPostgreSQLDoes() {
        #expect(ReadPosition(text: "16/B374D848")?.offset == 0x16_B374_D848)
        #expect(ReadPosition(offset: 0x16_B374_D848).text == "16/B374D848")
        #expect(ReadPosition(text: "0/0")?.offset == 0)
        for bad in ["", "16", "/1", "1/", "1/2/3", "G/1", "123456789/1", "1/ 2", "-1/2"] {
            #expect(ReadPosition(text: bad) == nil, "\(bad)")
        }
        #expect(ReadPosition(offset: 5) < ReadPosition(offset: 6))
    }

    @Test func aTokenSplitsFromItsPositionAndAPlainTokenIsLeftAlone() {
        let plain = "AQJfRWxV2BPDmwAAAAAAAAACAAAAAAAAAAE"
        #expect(PositionedToken.split(plain).token == plain)
        #expect(PositionedToken.split(plain).position == nil)
        let split = PositionedToken.split(plain + ".30A0250")
        #expect(split.token == plain)
        #expect(split.position == ReadPosition(offset: 0x30A0250))
        #expect(PositionedToken.split(plain + ".xyz").position == nil)
        #expect(PositionedToken.split(plain + ".").position == nil)
    }

    @Test func everySyncTokenOfAReplyIsStampedAndNothingElse() throws {
        let reply = #"{"zones":[{"zoneID":{"zoneName":"A"},"syncToken":"AAA"},{"syncToken":"B-_"}],"fields":{"syncToken":{"value":"x\"syncToken\":\"y"}}}"#
        let stamped = String(decoding: PositionedToken.stamping(Array(reply.utf8), with: ReadPosition(offset: 0xABC)), as: UTF8.self)
        #expect(stamped == #"{"zones":[{"zoneID":{"zoneName":"A"},"syncToken":"AAA.ABC"},{"syncToken":"B-_.ABC"}],"fields":{"syncToken":{"value":"x\"syncToken\":\"y"}}}"#)
        // What a client reads back is the token as the cloud made it.
        let json = try JSONValue.parse(stamped)
        #expect(try JSONFields.token(json["zones"]?.arrayValue?.first ?? .null)?.rawValue == "AAA")
        #expect(PositionedToken.position(inBody: Array(#"{"syncToken":"AAA.ABC"}"#.utf8)) == ReadPosition(offset: 0xABC))
        #expect(PositionedToken.position(inBody: Array(#"{"syncToken":"AAA"}"#.utf8)) == nil)
    }
}
