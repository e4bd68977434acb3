import CloudSyncCommands

// The command table and the backends are put together in CloudSyncCommands (`CommandTable`),
// where tests can reach them in-process.
CommandTable.main()
