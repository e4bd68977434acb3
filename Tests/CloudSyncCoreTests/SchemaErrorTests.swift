import CloudSyncCore
import Testing

/// Every refusal names the place: `FILE:LINE:COLUMN: message`, one line.
@Suite("Schema errors")
struct SchemaErrorTests {
    /// The rendered error for `text` as file `s.ckdb`, or nil when it parses.
    func error(_ text: String) -> String? {
        do {
            _ = try SchemaParser.parse(text)
            return nil
        } catch {
            return error.rendered(file: "s.ckdb")
        }
    }

    @Test func unknownTypeWithDidYouMean() {
        #expect(error("DEFINE SCHEMA\n  RECORD TYPE Note (\n    title STRNG\n  );")
            == "s.ckdb:3:11: unknown field type 'STRNG'; did you mean STRING?")
        #expect(error("DEFINE SCHEMA RECORD TYPE N (n int);")
            == "s.ckdb:1:32: unknown field type 'int'; did you mean INT64?")
        #expect(error("DEFINE SCHEMA RECORD TYPE N (n LIST<TIMESTAMPS>);")
            == "s.ckdb:1:37: unknown field type 'TIMESTAMPS'; did you mean TIMESTAMP?")
        #expect(error("DEFINE SCHEMA RECORD TYPE N (n WHATEVER);")
            == "s.ckdb:1:32: unknown field type 'WHATEVER'")
    }

    @Test func duplicateFieldAtTheSecondOne() {
        #expect(error("DEFINE SCHEMA\nRECORD TYPE Note (\n  title STRING,\n  body STRING,\n  title INT64\n);")
            == "s.ckdb:5:3: duplicate field 'title' in record type 'Note'")
        #expect(error("DEFINE SCHEMA RECORD TYPE N (\"___recordID\" REFERENCE, \"___recordID\" REFERENCE QUERYABLE);")
            == "s.ckdb:1:55: duplicate field '___recordID' in record type 'N'")
    }

    @Test func duplicateTypeAndRole() {
        #expect(error("DEFINE SCHEMA\nRECORD TYPE Note (a STRING);\nRECORD TYPE Note (b STRING);")
            == "s.ckdb:3:13: duplicate record type 'Note'")
        #expect(error("DEFINE SCHEMA CREATE ROLE Staff; CREATE ROLE Staff;")
            == "s.ckdb:1:46: duplicate role 'Staff'")
        #expect(error("DEFINE SCHEMA CREATE ROLE \"_world\";")
            == "s.ckdb:1:27: duplicate role '_world'")
    }

    @Test func indexAttributeTheTypeCannotHave() {
        #expect(error("DEFINE SCHEMA RECORD TYPE P (\n  photo ASSET SORTABLE\n);")
            == "s.ckdb:2:15: SORTABLE is not allowed on field 'photo' of type ASSET")
        #expect(error("DEFINE SCHEMA RECORD TYPE P (raw BYTES QUERYABLE);")
            == "s.ckdb:1:40: QUERYABLE is not allowed on field 'raw' of type BYTES")
        #expect(error("DEFINE SCHEMA RECORD TYPE P (n INT64 QUERYABLE SEARCHABLE);")
            == "s.ckdb:1:48: SEARCHABLE is not allowed on field 'n' of type INT64 (only STRING and LIST<STRING> are SEARCHABLE)")
        #expect(error("DEFINE SCHEMA RECORD TYPE P (s ENCRYPTED STRING QUERYABLE);")
            == "s.ckdb:1:49: QUERYABLE is not allowed on field 's' of type ENCRYPTED STRING")
        #expect(error("DEFINE SCHEMA RECORD TYPE P (r LIST<REFERENCE> SORTABLE);")
            == "s.ckdb:1:48: SORTABLE is not allowed on field 'r' of type LIST<REFERENCE>")
    }

    @Test func unknownRoleInGrant() {
        #expect(error("DEFINE SCHEMA\nRECORD TYPE T (\n  GRANT READ TO \"_wrld\"\n);")
            == "s.ckdb:3:17: unknown role '_wrld' (create it with CREATE ROLE, or use \"_creator\", \"_icloud\" or \"_world\"); did you mean '_world'?")
        #expect(error("DEFINE SCHEMA CREATE ROLE Manager; RECORD TYPE T (GRANT READ TO Managr);")
            == "s.ckdb:1:65: unknown role 'Managr' (create it with CREATE ROLE, or use \"_creator\", \"_icloud\" or \"_world\"); did you mean 'Manager'?")
    }

    @Test func systemFieldsKeepTheirTypesAndUnderscoreNamesAreReserved() {
        #expect(error("DEFINE SCHEMA RECORD TYPE T (\"___recordID\" STRING);")
            == "s.ckdb:1:30: system field '___recordID' has type REFERENCE, not STRING")
        #expect(error("DEFINE SCHEMA RECORD TYPE T (\"_secret\" STRING);")
            == "s.ckdb:1:30: '_secret': names starting with '_' are reserved for the system fields")
        #expect(error("DEFINE SCHEMA RECORD TYPE T (___recordID REFERENCE);")
            == "s.ckdb:1:30: '___recordID' must be quoted: plain names start with a letter")
    }

    @Test(arguments: [
        ("", "s.ckdb:1:1: expected DEFINE SCHEMA, found the end of the schema"),
        ("RECORD TYPE T (a STRING);", "s.ckdb:1:1: expected DEFINE SCHEMA, found 'RECORD'"),
        ("DEFINE TABLE", "s.ckdb:1:8: expected SCHEMA, found 'TABLE'"),
        ("DEFINE SCHEMA RECORD T (a STRING);", "s.ckdb:1:22: expected TYPE, found 'T'"),
        ("DEFINE SCHEMA RECORD TYPE T a STRING);", "s.ckdb:1:29: expected '(', found 'a'"),
        ("DEFINE SCHEMA RECORD TYPE T (a STRING b STRING);", "s.ckdb:1:39: expected QUERYABLE, SORTABLE, SEARCHABLE, ',' or ')', found 'b'"),
        ("DEFINE SCHEMA RECORD TYPE T (a STRING QUERYABL);", "s.ckdb:1:39: unknown attribute 'QUERYABL'; did you mean QUERYABLE?"),
        ("DEFINE SCHEMA RECORD TYPE T (a STRING) RECORD TYPE U ();", "s.ckdb:1:40: expected ';', found 'RECORD'"),
        ("DEFINE SCHEMA RECORD TYPE T (a STRING", "s.ckdb:1:38: expected ',' or ')', found the end of the schema"),
        ("DEFINE SCHEMA RECORD TYPE T (a);", "s.ckdb:1:31: expected a field type, found ')'"),
        ("DEFINE SCHEMA RECORD TYPE T (a LIST STRING);", "s.ckdb:1:37: expected '<', found 'STRING'"),
        ("DEFINE SCHEMA RECORD TYPE T (a LIST<STRING);", "s.ckdb:1:43: expected '>', found ')'"),
        ("DEFINE SCHEMA RECORD TYPE T (a ENCRYPTED ASSET);", "s.ckdb:1:42: expected BYTES, STRING, DOUBLE, INT64, LOCATION or TIMESTAMP after ENCRYPTED, found 'ASSET'"),
        ("DEFINE SCHEMA RECORD TYPE T (a NUMBER PREFERRED AS STRING);", "s.ckdb:1:52: expected INT64 or DOUBLE after PREFERRED AS, found 'STRING'"),
        ("DEFINE SCHEMA RECORD TYPE T (grant STRING);", "s.ckdb:1:36: expected READ, CREATE or WRITE, found 'STRING'"),
        ("DEFINE SCHEMA RECORD TYPE T (queryable STRING);", "s.ckdb:1:30: expected a field name or GRANT, found the reserved word 'queryable' (quote it to use it as a name)"),
        ("DEFINE SCHEMA RECORD TYPE T (GRANT READ \"_world\");", "s.ckdb:1:41: expected TO, found '\"_world\"'"),
        ("DEFINE SCHEMA RECORD TYPE T (GRANT DELETE TO \"_world\");", "s.ckdb:1:36: expected READ, CREATE or WRITE, found 'DELETE'"),
        ("DEFINE SCHEMA DROP TYPE T;", "s.ckdb:1:15: expected RECORD TYPE or CREATE ROLE, found 'DROP'"),
        ("DEFINE SCHEMA RECORD TYPE \"\" ();", "s.ckdb:1:27: empty quoted name"),
        ("DEFINE SCHEMA RECORD TYPE T (a STRING, 9b STRING);", "s.ckdb:1:40: unexpected character '9' (U+0039)"),
        ("DEFINE SCHEMA RECORD TYPE \u{201C}T\u{201D} ();", "s.ckdb:1:27: unexpected character '\u{201C}' (U+201C) (use straight double quotes)"),
    ])
    func badSyntax(text: String, expected: String) {
        #expect(error(text) == expected)
    }

    @Test func nestedListsAreRefusedAtTheInnerList() {
        #expect(error("DEFINE SCHEMA RECORD TYPE T (a LIST<LIST<STRING>>);")
            == "s.ckdb:1:37: lists cannot be nested: LIST takes STRING, INT64, … but not LIST")
    }

    @Test func unterminatedQuotesAndComments() {
        #expect(error("DEFINE SCHEMA\nRECORD TYPE \"Note (\n  a STRING\n);")
            == "s.ckdb:2:13: unterminated quoted name: no closing '\"' on this line")
        #expect(error("DEFINE SCHEMA RECORD TYPE \"Note")
            == "s.ckdb:1:27: unterminated quoted name: no closing '\"' on this line")
        #expect(error("DEFINE SCHEMA\n  /* a comment\n\n RECORD TYPE T ();")
            == "s.ckdb:2:3: unterminated comment: '/*' without '*/'")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(error("DEFINE SCHEMA RECORD TYPE \"Café\" (x STRNG);")
            == "s.ckdb:1:37: unknown field type 'STRNG'; did you mean STRING?")
    }

    @Test func messagesStayOnOneLine() {
        #expect(error("DEFINE SCHEMA RECORD TYPE \"a\tb\" ();")
            == "s.ckdb:1:29: unexpected character U+0009")
        let e = error("DEFINE SCHEMA CREATE ROLE \"x\u{2028}y\"; RECORD TYPE T (GRANT READ TO \"x\u{2028}z\");")
        #expect(e == "s.ckdb:1:63: unknown role 'x\\u{2028}z' (create it with CREATE ROLE, or use \"_creator\", \"_icloud\" or \"_world\"); did you mean 'x\\u{2028}y'?")
    }
}
