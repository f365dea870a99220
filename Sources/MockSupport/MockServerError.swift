/// The errors fcm-mock's and hms-mock's APIs throw alike, as cases of each one's public error enum
/// (whose descriptions name the mock).
package protocol MockServerError: Error {
    /// A wait ran out of time.
    static func timedOut(waitingFor: String, after: Duration) -> Self
    /// The server was shut down while something waited on it, or while it started.
    static var shutDown: Self { get }
    /// `start()` was called twice, or after `shutdown()`.
    static var alreadyStarted: Self { get }
    /// The TLS certificate or key could not be loaded.
    static func invalidTLSMaterial(path: String, detail: String) -> Self
    /// The record file could not be created or opened for appending.
    static func cannotOpenRecordFile(path: String, detail: String) -> Self
}
