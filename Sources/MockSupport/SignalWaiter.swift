import Dispatch
import Foundation

/// Turns SIGINT/SIGTERM into an awaitable event instead of the default process kill, so the
/// server can close its connections first.
/// Kept for the life of `run()`; the sources stop delivering when it is released.
package final class SignalWaiter {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    package init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        self.sources = signals.map { number in
            #if canImport(Darwin)
                // Darwin delivers to dispatch through kqueue only if the default action is off.
                // (On Linux dispatch installs its own handler; SIG_IGN there can swallow the signal.)
                signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// The first signal received.
    package func next() async -> Int32 {
        var iterator = self.stream.makeAsyncIterator()
        return await iterator.next() ?? SIGTERM
    }
}
