extension SQLiteCloudSchema {
    /// Version 9: each account's display name and whether look-up by login finds it (issue 26).
    /// An account without a row has no name and is discoverable.
    static let version9 = """
    CREATE TABLE user_profiles(
        account TEXT PRIMARY KEY,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL,
        discoverable INTEGER NOT NULL,
        modified_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    """
}
