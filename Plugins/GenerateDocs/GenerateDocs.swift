import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-docs`: builds `cloudsync` and
/// runs its hidden `__generate-docs` on the package folder, which rewrites the man pages in
/// `man/` and the shell completions in `completions/` from the command table. With `--check`
/// it only reports files that differ (and fails if any do).
///
/// Foundation is used here only for `Process`: plugins run on the build machine and are not
/// part of the product, which stays free of Foundation.
@main
struct GenerateDocs: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let result = try packageManager.build(.product("cloudsync"),
                                              parameters: .init(configuration: .debug, logging: .concise))
        guard result.succeeded else {
            Diagnostics.error("building cloudsync failed:\n" + result.logText)
            throw GenerateDocsError.buildFailed
        }
        guard let tool = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "cloudsync" })
        else {
            throw GenerateDocsError.noExecutable
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["__generate-docs", "--output", context.package.directoryURL.path] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw GenerateDocsError.generatorFailed(status: process.terminationStatus)
        }
    }
}

/// Why the plugin failed.
enum GenerateDocsError: Error, CustomStringConvertible {
    case buildFailed
    case noExecutable
    case generatorFailed(status: Int32)

    var description: String {
        switch self {
        case .buildFailed: "building cloudsync failed"
        case .noExecutable: "the build produced no cloudsync executable"
        case .generatorFailed(let status): "cloudsync __generate-docs failed with status \(status)"
        }
    }
}
