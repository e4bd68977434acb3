import CPostgres
import CloudSyncCore

/// libpq, PostgreSQL's client library, opened with `dlopen` on the first connection instead of
/// linked: only `--cloud postgres://` needs it, and every other command would pay for its loading
/// (and for libssl, libgssapi and the rest it brings) at each start. Every function is resolved
/// once per process, as a typed `@convention(c)` pointer; `CPostgres` supplies only the types.
struct LibPQ: @unchecked Sendable {
    /// The file name loaded (libpq 5's soname) and the Debian package that has it.
    static let soname = "libpq.so.5"
    static let package = "libpq5"

    typealias ConnectParams = @convention(c) (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?,
                                              Int32) -> OpaquePointer?
    typealias Status = @convention(c) (OpaquePointer?) -> ConnStatusType
    typealias ConnectionText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias ConnectionInt = @convention(c) (OpaquePointer?) -> Int32
    typealias Finish = @convention(c) (OpaquePointer?) -> Void
    typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias ExecParams = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?,
                                           UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                           UnsafePointer<Int32>?, Int32) -> OpaquePointer?
    typealias Prepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32,
                                        UnsafePointer<Oid>?) -> OpaquePointer?
    typealias ExecPrepared = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32,
                                             UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                             UnsafePointer<Int32>?, Int32) -> OpaquePointer?
    typealias SendPrepared = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32,
                                             UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                             UnsafePointer<Int32>?, Int32) -> Int32
    typealias GetResult = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias ResultStatus = @convention(c) (OpaquePointer?) -> ExecStatusType
    typealias ResultErrorField = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias ResultText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias ResultInt = @convention(c) (OpaquePointer?) -> Int32
    typealias Clear = @convention(c) (OpaquePointer?) -> Void
    typealias GetValue = @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    typealias GetInt = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    typealias FieldType = @convention(c) (OpaquePointer?, Int32) -> Oid
    typealias FieldName = @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias Notifies = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<PGnotify>?
    typealias FreeMemory = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias SetNoticeProcessor = @convention(c) (OpaquePointer?, PQnoticeProcessor?, UnsafeMutableRawPointer?)
        -> PQnoticeProcessor?
    typealias TransactionStatus = @convention(c) (OpaquePointer?) -> PGTransactionStatusType
    typealias SendQueryParams = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?,
                                                UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                                UnsafePointer<Int32>?, Int32) -> Int32
    typealias SendPrepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32,
                                            UnsafePointer<Oid>?) -> Int32

    let connectParams: ConnectParams        // PQconnectdbParams
    let status: Status                      // PQstatus
    let errorMessage: ConnectionText        // PQerrorMessage
    let finish: Finish                      // PQfinish
    let exec: Exec                          // PQexec
    let execParams: ExecParams              // PQexecParams
    let prepare: Prepare                    // PQprepare
    let execPrepared: ExecPrepared          // PQexecPrepared
    let sendPrepared: SendPrepared          // PQsendQueryPrepared
    let getResult: GetResult                // PQgetResult
    let resultStatus: ResultStatus          // PQresultStatus
    let resultErrorField: ResultErrorField  // PQresultErrorField
    let resultErrorMessage: ResultText      // PQresultErrorMessage
    let clear: Clear                        // PQclear
    let rowCount: ResultInt                 // PQntuples
    let columnCount: ResultInt              // PQnfields
    let value: GetValue                     // PQgetvalue
    let length: GetInt                      // PQgetlength
    let isNull: GetInt                      // PQgetisnull
    let columnType: FieldType               // PQftype
    let columnName: FieldName               // PQfname
    let commandTuples: ResultText           // PQcmdTuples
    let socket: ConnectionInt               // PQsocket
    let consumeInput: ConnectionInt         // PQconsumeInput
    let notifies: Notifies                  // PQnotifies
    let freeMemory: FreeMemory              // PQfreemem
    let setNoticeProcessor: SetNoticeProcessor  // PQsetNoticeProcessor
    let transactionStatus: TransactionStatus    // PQtransactionStatus
    let backendPID: ConnectionInt           // PQbackendPID
    let serverVersion: ConnectionInt        // PQserverVersion
    let sendQueryParams: SendQueryParams    // PQsendQueryParams
    let sendPrepare: SendPrepare            // PQsendPrepare
    let enterPipelineMode: ConnectionInt    // PQenterPipelineMode (libpq 14+)
    let exitPipelineMode: ConnectionInt     // PQexitPipelineMode
    let pipelineSync: ConnectionInt         // PQpipelineSync
    let flush: ConnectionInt                // PQflush

    /// The library, loaded and resolved on the first call; the same error on every call when it
    /// cannot be loaded.
    static func shared() throws(SharedLibraryError) -> LibPQ {
        try loaded.get()
    }

    /// True when libpq has been loaded in this process.
    static var isLoaded: Bool { SharedLibrary.isLoaded(soname) }

    /// The one load of the process (a global's initialiser: run once, thread-safe).
    private static let loaded: Result<LibPQ, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        var library = try SharedLibrary(soname, package: package)
        let connectParams = library.function("PQconnectdbParams", as: ConnectParams.self)
        let status = library.function("PQstatus", as: Status.self)
        let errorMessage = library.function("PQerrorMessage", as: ConnectionText.self)
        let finish = library.function("PQfinish", as: Finish.self)
        let exec = library.function("PQexec", as: Exec.self)
        let execParams = library.function("PQexecParams", as: ExecParams.self)
        let prepare = library.function("PQprepare", as: Prepare.self)
        let execPrepared = library.function("PQexecPrepared", as: ExecPrepared.self)
        let sendPrepared = library.function("PQsendQueryPrepared", as: SendPrepared.self)
        let getResult = library.function("PQgetResult", as: GetResult.self)
        let resultStatus = library.function("PQresultStatus", as: ResultStatus.self)
        let resultErrorField = library.function("PQresultErrorField", as: ResultErrorField.self)
        let resultErrorMessage = library.function("PQresultErrorMessage", as: ResultText.self)
        let clear = library.function("PQclear", as: Clear.self)
        let rowCount = library.function("PQntuples", as: ResultInt.self)
        let columnCount = library.function("PQnfields", as: ResultInt.self)
        let value = library.function("PQgetvalue", as: GetValue.self)
        let length = library.function("PQgetlength", as: GetInt.self)
        let isNull = library.function("PQgetisnull", as: GetInt.self)
        let columnType = library.function("PQftype", as: FieldType.self)
        let columnName = library.function("PQfname", as: FieldName.self)
        let commandTuples = library.function("PQcmdTuples", as: ResultText.self)
        let socket = library.function("PQsocket", as: ConnectionInt.self)
        let consumeInput = library.function("PQconsumeInput", as: ConnectionInt.self)
        let notifies = library.function("PQnotifies", as: Notifies.self)
        let freeMemory = library.function("PQfreemem", as: FreeMemory.self)
        let setNoticeProcessor = library.function("PQsetNoticeProcessor", as: SetNoticeProcessor.self)
        let transactionStatus = library.function("PQtransactionStatus", as: TransactionStatus.self)
        let backendPID = library.function("PQbackendPID", as: ConnectionInt.self)
        let serverVersion = library.function("PQserverVersion", as: ConnectionInt.self)
        let sendQueryParams = library.function("PQsendQueryParams", as: SendQueryParams.self)
        let sendPrepare = library.function("PQsendPrepare", as: SendPrepare.self)
        let enterPipelineMode = library.function("PQenterPipelineMode", as: ConnectionInt.self)
        let exitPipelineMode = library.function("PQexitPipelineMode", as: ConnectionInt.self)
        let pipelineSync = library.function("PQpipelineSync", as: ConnectionInt.self)
        let flush = library.function("PQflush", as: ConnectionInt.self)
        try library.checkResolved()
        guard let connectParams, let status, let errorMessage, let finish, let exec, let execParams, let prepare,
              let execPrepared, let sendPrepared, let getResult, let resultStatus, let resultErrorField, let resultErrorMessage, let clear, let rowCount,
              let columnCount, let value, let length, let isNull, let columnType, let columnName, let commandTuples,
              let socket, let consumeInput, let notifies, let freeMemory, let setNoticeProcessor, let transactionStatus,
              let backendPID, let serverVersion, let sendQueryParams, let sendPrepare, let enterPipelineMode,
              let exitPipelineMode, let pipelineSync, let flush
        else { throw .missingSymbols(soname, []) }
        return LibPQ(connectParams: connectParams, status: status, errorMessage: errorMessage, finish: finish, exec: exec,
                     execParams: execParams, prepare: prepare, execPrepared: execPrepared,
                     sendPrepared: sendPrepared, getResult: getResult, resultStatus: resultStatus,
                     resultErrorField: resultErrorField, resultErrorMessage: resultErrorMessage, clear: clear,
                     rowCount: rowCount, columnCount: columnCount, value: value, length: length, isNull: isNull,
                     columnType: columnType, columnName: columnName, commandTuples: commandTuples, socket: socket,
                     consumeInput: consumeInput, notifies: notifies, freeMemory: freeMemory,
                     setNoticeProcessor: setNoticeProcessor, transactionStatus: transactionStatus,
                     backendPID: backendPID, serverVersion: serverVersion, sendQueryParams: sendQueryParams,
                     sendPrepare: sendPrepare, enterPipelineMode: enterPipelineMode, exitPipelineMode: exitPipelineMode,
                     pipelineSync: pipelineSync, flush: flush)
    }
}
