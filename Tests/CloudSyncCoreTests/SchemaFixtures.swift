import CloudSyncCore
import TestSupport

/// .ckdb texts in the shapes people keep in their repositories (written for these tests, after
/// the structure of public files): a `cktool export-schema` file, a hand-written file in the
/// style of Apple's documentation, and a Core Data mirroring export.
enum SchemaFixtures {
    /// As `cktool export-schema` writes it: system fields quoted and listed, types aligned,
    /// the three standard grants.
    static let exported = """
        DEFINE SCHEMA

            RECORD TYPE Comment (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                body            STRING SEARCHABLE,
                place           REFERENCE QUERYABLE,
                rating          INT64 QUERYABLE SORTABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Place (
                Kind            STRING QUERYABLE,
                "___createTime" TIMESTAMP QUERYABLE,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                photo           ASSET,
                position        LOCATION QUERYABLE,
                tags            LIST<STRING> QUERYABLE SEARCHABLE SORTABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                GRANT READ, WRITE TO "_creator",
                GRANT READ, CREATE, WRITE TO "_icloud",
                GRANT READ TO "_world"
            );

        """

    /// Hand-written after Apple's example: a created role, unaligned fields in any order, lists,
    /// only some system fields, every comment form, lower-case keywords.
    static let handWritten = """
        // Company directory.
        DEFINE SCHEMA
            CREATE ROLE DeptManager;

            -- Departments and who works there.
            RECORD TYPE Department (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___recordID" REFERENCE QUERYABLE,
                name STRING,
                address STRING,   /* street, city */
                phone LIST<STRING>,
                employees LIST<REFERENCE>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world",
                GRANT WRITE, CREATE, READ TO DeptManager
            );

            /*
             * People.
             */
            record type Employee (
                "___recordID" reference queryable,
                name string,
                hiredate timestamp,
                salary int64,
                grant write to "_creator",
                grant create to "_icloud",
                grant read to "_world"
            );

        """

    /// A Core Data (NSPersistentCloudKitContainer) mirroring export: `CD_` fields with
    /// `_ckAsset` overflow assets, `cloudkit.share`, `Users`, encrypted fields, a settled NUMBER.
    static let coreData = """
        DEFINE SCHEMA

            RECORD TYPE CD_Entry (
                "___createTime"        TIMESTAMP,
                "___createdBy"         REFERENCE,
                "___etag"              STRING,
                "___modTime"           TIMESTAMP,
                "___modifiedBy"        REFERENCE,
                "___recordID"          REFERENCE QUERYABLE,
                CD_amount              NUMBER PREFERRED AS DOUBLE QUERYABLE SORTABLE,
                CD_body                ENCRYPTED STRING,
                CD_body_ckAsset        ASSET,
                CD_createdAt           TIMESTAMP QUERYABLE SORTABLE,
                CD_entityName          STRING QUERYABLE SEARCHABLE SORTABLE,
                CD_identifier          STRING QUERYABLE SEARCHABLE SORTABLE,
                CD_location            ENCRYPTED_LOCATION,
                CD_payload             BYTES,
                CD_payload_ckAsset     ASSET,
                CD_secretNumbers       LIST<ENCRYPTED INT64>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Users (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE,
                roles           LIST<INT64>,
                GRANT WRITE TO "_creator",
                GRANT READ TO "_world"
            );

            RECORD TYPE "cloudkit.share" (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                cloudkit_title  STRING,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

        """

    /// A large schema in the shape of a real app's (`LargeSchemaText.recipeApp`, shared with
    /// the `cloudsync schema` tests).
    static var large: String { LargeSchemaText.recipeApp }
}
