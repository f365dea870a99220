/// How the dispatcher paces itself. Built once, injected.
public struct DispatcherConfiguration: Sendable, Hashable {
    /// Most deliveries held in memory (claimed and not yet recorded). Everything beyond waits in
    /// SQLite, so a backlog of millions costs disk, not RAM. Pick about twice the sum of the
    /// the provider clients' stream capacity (connections × concurrent streams).
    public var window: Int
    /// Most deliveries claimed per query.
    public var claimBatch: Int
    /// Most claimed deliveries one app holds at once. The default leaves a claim batch of the
    /// window to the other apps: an app whose provider is slow (or whose backlog is a million
    /// pushes) cannot delay another app's pushes beyond one claim.
    public var appWindow: Int
    /// Outcomes recorded per transaction (recorded sooner when the pipeline runs dry).
    public var recordBatch: Int
    /// Outcomes are recorded at least this often while sends finish, even short of a batch:
    /// a sent push shows as sent (and leaves in-flight) soon after the provider accepted it.
    public var recordInterval: Duration
    /// After a claim found nothing more due, the dispatcher claims again without a `wake()` no
    /// sooner than this: retries falling due are picked up, without a query per loop turn.
    public var drainedClaimDelay: Duration
    /// First retry delay; doubled per attempt, with ±50 % jitter.
    public var initialBackoff: Duration
    /// Cap of the exponential backoff and of an honoured Retry-After.
    public var maximumBackoff: Duration
    /// Longest idle sleep between looks at the queue (the webhook also wakes the dispatcher).
    public var idlePoll: Duration
    /// On graceful shutdown, how long in-flight sends may take before they are put back.
    public var shutdownGrace: Duration
    /// Per-request deadline every sender is given (the HTTP/2 clients' default, 15 s).
    public var requestTimeout: Duration
    /// The longest an accepted push should wait, in measured sending time of its app: the
    /// webhook refuses (503, Retry-After) an event that would make the app's unsent pushes take
    /// longer than this to send. Zero accepts everything.
    public var maxBacklog: Duration

    public init(
        window: Int = 2000, claimBatch: Int = 500, recordBatch: Int = 500,
        initialBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(300),
        idlePoll: Duration = .seconds(1), shutdownGrace: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(15), appWindow: Int? = nil, maxBacklog: Duration = .zero,
        recordInterval: Duration = .milliseconds(100), drainedClaimDelay: Duration = .milliseconds(50)
    ) {
        self.window = max(1, window)
        self.claimBatch = max(1, claimBatch)
        self.appWindow = max(1, appWindow ?? max(window / 2, window - claimBatch))
        self.recordBatch = max(1, recordBatch)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.idlePoll = idlePoll
        self.shutdownGrace = shutdownGrace
        self.requestTimeout = requestTimeout
        self.maxBacklog = maxBacklog
        self.recordInterval = recordInterval
        self.drainedClaimDelay = drainedClaimDelay
    }
}
