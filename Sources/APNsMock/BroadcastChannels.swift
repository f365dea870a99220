/// The broadcast channels apns-mock holds, per bundle id, with each one's message storage policy
/// (0: no message stored for a device that is offline; 1: the latest one is). Pure.
struct BroadcastChannels: Sendable {
    private var byBundle: [String: [String: Int]] = [:]

    /// The policies Apple defines.
    static let storagePolicies: ClosedRange<Int> = 0...1

    mutating func create(bundle: String, id: String, storagePolicy: Int) {
        byBundle[bundle, default: [:]][id] = storagePolicy
    }

    func storagePolicy(bundle: String, id: String) -> Int? { byBundle[bundle]?[id] }

    /// The bundle's channel ids, sorted.
    func ids(bundle: String) -> [String] { (byBundle[bundle] ?? [:]).keys.sorted() }

    /// Whether it was there.
    mutating func delete(bundle: String, id: String) -> Bool {
        byBundle[bundle]?.removeValue(forKey: id) != nil
    }

    mutating func removeAll() { byBundle.removeAll() }
}
