#if canImport(Glibc)
    import Glibc
#endif

/// The relay process's own figures as Linux's /proc reports them, for the `process_*` metrics
/// every Prometheus client exports under these names: CPU time, resident and virtual memory,
/// open and allowed descriptors, start time. Parsing is separate from reading, so the parsers
/// are tested on fixture text.
public struct ProcessStatistics: Sendable, Equatable {
    /// User and system CPU time, in seconds.
    public var cpuSeconds: Double
    public var residentBytes: Double
    public var virtualBytes: Double
    /// When the process started, in Unix seconds.
    public var startTimeSeconds: Double
    public var openFDs: Int?
    /// The soft limit on open descriptors (`+Inf` when unlimited).
    public var maxFDs: Double?

    /// The fields of `/proc/self/stat` this needs.
    struct Stat: Equatable {
        var utimeTicks: Double
        var stimeTicks: Double
        var startTicks: Double
        var virtualBytes: Double
        var residentPages: Double
    }

    /// `/proc/[pid]/stat`: the command name, field 2, is in parentheses and may itself hold
    /// spaces and parentheses, so fields are counted from the last `)`. After it come field 3
    /// (state) onwards: utime 14, stime 15, starttime 22, vsize 23, rss 24 (`man 5 proc`).
    static func parseStat(_ text: String) -> Stat? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        func field(_ number: Int) -> Double? {
            let index = number - 3
            guard index < fields.count else { return nil }
            return Double(fields[index].trimmingSuffix(while: \.isNewline))
        }
        guard let utime = field(14), let stime = field(15), let start = field(22), let vsize = field(23), let rss = field(24) else {
            return nil
        }
        return Stat(utimeTicks: utime, stimeTicks: stime, startTicks: start, virtualBytes: vsize, residentPages: rss)
    }

    /// The soft "Max open files" limit of `/proc/[pid]/limits` (`+Inf` for `unlimited`).
    static func parseMaxOpenFiles(_ text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("Max open files") {
            let values = line.dropFirst("Max open files".count).split(separator: " ", omittingEmptySubsequences: true)
            guard let soft = values.first else { return nil }
            return soft == "unlimited" ? .infinity : Double(soft)
        }
        return nil
    }

    /// The boot time (`btime`, Unix seconds) of `/proc/stat`.
    static func parseBootTime(_ text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count).trimmingSuffix(while: \.isWhitespace))
        }
        return nil
    }

    /// The figures from the texts of `/proc/self/stat` and `/proc/self/limits`, the boot time
    /// and the system's clock ticks per second and page size; nil when `stat` cannot be read.
    static func parse(
        stat: String, limits: String?, bootTime: Double, clockTicks: Double, pageSize: Double, openFDs: Int?
    ) -> ProcessStatistics? {
        guard let stat = parseStat(stat), clockTicks > 0 else { return nil }
        return ProcessStatistics(
            cpuSeconds: (stat.utimeTicks + stat.stimeTicks) / clockTicks, residentBytes: stat.residentPages * pageSize,
            virtualBytes: stat.virtualBytes, startTimeSeconds: bootTime + stat.startTicks / clockTicks, openFDs: openFDs,
            maxFDs: limits.flatMap(parseMaxOpenFiles))
    }

    /// This process's figures now; nil where there is no /proc (not Linux).
    public static func current() -> ProcessStatistics? {
        #if os(Linux)
            guard let stat = readSmallFile("/proc/self/stat"), let bootTime = Self.bootTime else { return nil }
            return parse(
                stat: stat, limits: readSmallFile("/proc/self/limits"), bootTime: bootTime,
                clockTicks: Double(sysconf(Int32(_SC_CLK_TCK))), pageSize: Double(sysconf(Int32(_SC_PAGESIZE))),
                openFDs: countEntries(of: "/proc/self/fd"))
        #else
            return nil
        #endif
    }

    #if os(Linux)
        /// Read once: `/proc/stat` grows with the number of CPUs, and the boot time never changes.
        private static let bootTime: Double? = readSmallFile("/proc/stat").flatMap(parseBootTime)

        /// A /proc file's text (their size reads as 0, so read to the end), at most 64 KiB.
        static func readSmallFile(_ path: String) -> String? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while bytes.count < 65_536 {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The entries of a directory but `.` and `..` (the descriptor the listing itself
        /// holds is counted, as every Prometheus client counts it).
        static func countEntries(of path: String) -> Int? {
            guard let directory = opendir(path) else { return nil }
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                    name[0] == UInt8(ascii: ".") && (name[1] == 0 || (name[1] == UInt8(ascii: ".") && name[2] == 0))
                }
                if !isDot { count += 1 }
            }
            return count
        }
    #endif
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
