import TestSupport
import Testing

/// Issue 31, item 5: the manifest says what the code does. Every module of this package that a
/// target's sources import is a declared dependency of that target, not one it reaches through
/// another (SwiftPM's `--explicit-target-dependency-import-check error`, which CI builds with,
/// accepts those; this test does not).
@Suite("Package.swift declares every import")
struct ManifestImportsTests {
    /// A target of Package.swift: its name, declared dependencies and source folder.
    struct Target {
        var name: String
        var dependencies: Set<String>
        var folder: String
    }

    /// The targets of `manifest` (`.target`, `.executableTarget`, `.testTarget`).
    static func targets(_ manifest: String) -> [Target] {
        let kinds = [(".target(name: \"", "Sources/"), (".executableTarget(name: \"", "Sources/"), (".testTarget(name: \"", "Tests/")]
        var starts: [(String.Index, String.Index, String)] = []  // entry start, after the name's quote, default root
        for (marker, root) in kinds {
            var from = manifest.startIndex
            while let found = manifest[from...].firstRange(of: marker) {
                starts.append((found.lowerBound, found.upperBound, root))
                from = found.upperBound
            }
        }
        starts.sort { $0.0 < $1.0 }
        return starts.indices.map { i in
            let (_, nameStart, root) = starts[i]
            let end = i + 1 < starts.count ? starts[i + 1].0 : manifest.endIndex
            let entry = manifest[nameStart..<end]
            let name = String(entry.prefix { $0 != "\"" })
            var dependencies: Set<String> = []
            if let list = entry.firstRange(of: "dependencies: [") {
                let inner = entry[list.upperBound...].prefix { $0 != "]" }
                dependencies = Set(inner.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
            }
            var folder = root + name
            if let path = entry.firstRange(of: "path: \"") {
                folder = String(entry[path.upperBound...].prefix { $0 != "\"" })
            }
            return Target(name: name, dependencies: dependencies, folder: folder)
        }
    }

    /// The modules the Swift files under `folder` import (`import X`, `@testable import X`).
    static func imports(in folder: String) -> Set<String> {
        let found = ProcessSpawner.run("/bin/sh", ["-c", "grep -rhoE '^(@testable )?import [A-Za-z0-9_]+$' --include='*.swift' \"$1\" || true",
                                                   "sh", folder],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        return Set(found.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
    }

    @Test func everyImportedPackageModuleIsADeclaredDependency() throws {
        let root = SettingsTableTests.packageFolder
        let bytes = try #require(TemporaryDirectory.readBytes(root + "/Package.swift"))
        let targets = Self.targets(String(decoding: bytes, as: UTF8.self))
        #expect(targets.count > 40, "parsed \(targets.count) targets")
        let names = Set(targets.map(\.name))
        var undeclared: [String] = []
        for target in targets {
            let imported = Self.imports(in: root + "/" + target.folder)
            // A module of an older layout (CloudSyncCloud) can linger in a build folder and still compile.
            let gone = imported.filter { $0.hasPrefix("CloudSync") && !names.contains($0) }.sorted()
            if !gone.isEmpty { undeclared.append("\(target.name): no such target \(gone.joined(separator: ", "))") }
            let used = imported.intersection(names).subtracting([target.name])
            let missing = used.subtracting(target.dependencies).sorted()
            if !missing.isEmpty { undeclared.append("\(target.name): \(missing.joined(separator: ", "))") }
        }
        #expect(undeclared.isEmpty, "imported but not declared in Package.swift:\n\(undeclared.joined(separator: "\n"))")
    }

    /// The fuzz targets (built by scripts/fuzz from the modules' sources, not by SwiftPM) import
    /// only modules that exist: a renamed module fails here, not in CI's fuzz step.
    @Test func theFuzzTargetsImportModulesThatExist() throws {
        let root = SettingsTableTests.packageFolder
        let bytes = try #require(TemporaryDirectory.readBytes(root + "/Package.swift"))
        let names = Set(Self.targets(String(decoding: bytes, as: UTF8.self)).map(\.name))
        let imported = Self.imports(in: root + "/Fuzz").filter { $0.hasPrefix("CloudSync") }
        #expect(!imported.isEmpty, "read the fuzz targets")
        #expect(imported.subtracting(names).isEmpty, "fuzz targets import no such module: \(imported.subtracting(names).sorted())")
    }

    /// The parser reads what it must: a target with a path and a test target.
    @Test func theParserReadsDependenciesAndPaths() {
        let manifest = """
            .target(name: "A", dependencies: ["B", "C"], path: "Sources/Commands/A", swiftSettings: strict),
            .testTarget(name: "ATests", dependencies: ["A"]),
            """
        let parsed = Self.targets(manifest)
        #expect(parsed.map(\.name) == ["A", "ATests"])
        #expect(parsed.first?.dependencies == ["B", "C"] && parsed.first?.folder == "Sources/Commands/A")
        #expect(parsed.last?.dependencies == ["A"] && parsed.last?.folder == "Tests/ATests")
    }
}
