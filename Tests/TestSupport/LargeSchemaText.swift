/// Schema text shared by the tests of the schema language and of `cloudsync schema`.
public enum LargeSchemaText {
    /// A large schema in the shape of a real app's: 12 record types with lists, references,
    /// assets, encrypted fields, grants and two created roles.
    public static var recipeApp: String {
        var text = "// A recipe-sharing app.\nDEFINE SCHEMA\n    CREATE ROLE Moderator;\n    CREATE ROLE \"Editor\";\n"
        let names = ["Recipe", "Ingredient", "Step", "Photo", "Review", "Author", "Collection", "Tag",
                     "MealPlan", "ShoppingList", "Comment", "Report"]
        for (i, name) in names.enumerated() {
            text += """

                RECORD TYPE \(name) (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    "___recordID"   REFERENCE QUERYABLE,
                    title           STRING QUERYABLE SEARCHABLE SORTABLE,
                    summary         ENCRYPTED STRING,
                    position        INT64 QUERYABLE SORTABLE,
                    weight          DOUBLE SORTABLE,
                    madeAt          TIMESTAMP QUERYABLE,
                    owner           REFERENCE QUERYABLE,
                    parts           LIST<REFERENCE> QUERYABLE,
                    labels          LIST<STRING> QUERYABLE SEARCHABLE,
                    cover           ASSET,
                    gallery         LIST<ASSET>,
                    raw             BYTES,
                    where\(i)          LOCATION QUERYABLE,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world",
                    GRANT READ, WRITE TO Moderator\(i % 3 == 0 ? ",\n        GRANT CREATE TO \"Editor\"" : "")
                );

                """
        }
        return text
    }
}
