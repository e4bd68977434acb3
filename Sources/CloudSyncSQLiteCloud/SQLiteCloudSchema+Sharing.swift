extension SQLiteCloudSchema {
    /// Version 7: zone shares (issue 18). `shares` and `share_participants` belong to the
    /// owner's private database, `shared_zones` to each participant's shared database (its
    /// zone list and change log: `db_seq` from that database's counter). Every table is keyed
    /// by `db_id` first.
    static let version7 = """
    CREATE TABLE shares(
        db_id INTEGER NOT NULL,
        zone_name TEXT NOT NULL,
        title TEXT NOT NULL,
        public_permission TEXT NOT NULL,
        token TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        modified_ms INTEGER NOT NULL,
        PRIMARY KEY(db_id, zone_name)
    ) WITHOUT ROWID;
    CREATE TABLE share_participants(
        db_id INTEGER NOT NULL,
        zone_name TEXT NOT NULL,
        participant TEXT NOT NULL,
        permission TEXT NOT NULL,
        accepted INTEGER NOT NULL,
        PRIMARY KEY(db_id, zone_name, participant)
    ) WITHOUT ROWID;
    CREATE TABLE shared_zones(
        db_id INTEGER NOT NULL,
        owner TEXT NOT NULL,
        zone_name TEXT NOT NULL,
        live INTEGER NOT NULL,
        db_seq INTEGER NOT NULL,
        PRIMARY KEY(db_id, owner, zone_name)
    ) WITHOUT ROWID;
    CREATE INDEX shared_zones_by_seq ON shared_zones(db_id, db_seq);
    """
}
