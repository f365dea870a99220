/// A mock's configuration: the settings every such mock has (`settings`, read and written as if
/// they were the configuration's own: `configuration.port = 0`) and its own.
@dynamicMemberLookup
public protocol MockServerConfiguration: Sendable {
    var settings: MockServerSettings { get set }
}

extension MockServerConfiguration {
    public subscript<Value>(dynamicMember path: WritableKeyPath<MockServerSettings, Value>) -> Value {
        get { settings[keyPath: path] }
        set { settings[keyPath: path] = newValue }
    }
}
