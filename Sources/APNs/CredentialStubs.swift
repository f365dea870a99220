// TEMPORARY stubs until the credentials branch lands.
import Foundation
import COpenSSL
public struct ProviderToken: Sendable, Equatable { public let jwt: String; public let generation: UInt64; public let issuedAt: Date
  public var authorizationHeader: String { "bearer \(jwt)" } }
public final class APNsSigningKey: Sendable { public init(p8File: String) throws {} }
public final class ProviderTokenCache: Sendable {
  public init() {}
  public init(key: APNsSigningKey, keyID: String, teamID: String) throws {}
  public func current() throws -> ProviderToken { ProviderToken(jwt: "x", generation: 1, issuedAt: Date()) }
  public func invalidate(generation: UInt64) throws -> ProviderToken { try current() }
}
public final class APNsClientIdentity: Sendable {
  public init() {}
  public func install(into ctx: OpaquePointer) throws {}
  public var notAfter: Date { Date() }
}
enum OpenSSLError { static func drainQueue() -> String { "" } }
extension APNsClientIdentity {
  public static func p12(path: String, password: String?) throws -> APNsClientIdentity { APNsClientIdentity() }
  public static func pem(certificatePath: String, keyPath: String, keyPassword: String? = nil) throws -> APNsClientIdentity { APNsClientIdentity() }
}
