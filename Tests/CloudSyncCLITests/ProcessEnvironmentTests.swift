import CloudSyncCLI
import Glibc
import Testing

@Suite("ProcessEnvironment")
struct ProcessEnvironmentTests {
    @Test func readsEveryVariableAsGetenvDoes() {
        setenv("CLOUDSYNC_ENV_TEST_EQUALS", "a=b=c", 1)
        setenv("CLOUDSYNC_ENV_TEST_EMPTY", "", 1)
        setenv("CLOUDSYNC_ENV_TEST_UTF8", "grüße ✓", 1)
        defer {
            unsetenv("CLOUDSYNC_ENV_TEST_EQUALS")
            unsetenv("CLOUDSYNC_ENV_TEST_EMPTY")
            unsetenv("CLOUDSYNC_ENV_TEST_UTF8")
        }
        let environment = ProcessEnvironment.current()
        #expect(environment["CLOUDSYNC_ENV_TEST_EQUALS"] == "a=b=c", "the value runs from the first '='")
        #expect(environment["CLOUDSYNC_ENV_TEST_EMPTY"] == "")
        #expect(environment["CLOUDSYNC_ENV_TEST_UTF8"] == "grüße ✓")
        #expect(environment["CLOUDSYNC_ENV_TEST_UNSET"] == nil)
        for (name, value) in environment {
            #expect(getenv(name).map { String(cString: $0) } == value, "\(name)")
        }
    }
}
