import PushSending
import StoreContract

extension TokenRemovalRule {
    /// How a token the provider called dead leaves the registry, its answer having come at
    /// `answeredAtMs`: the one rule for queued pushes (`SendOutcomes`) and test pushes.
    package init(_ death: TokenDeath, answeredAtMs: Int64) {
        switch death {
        case .always: self = .always
        case .registeredBefore(let ms): self = .ifRegisteredBefore(ms)
        case .registeredBeforeAnswer: self = .ifRegisteredBefore(answeredAtMs)
        }
    }
}
