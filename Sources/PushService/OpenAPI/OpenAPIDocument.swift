import NIOCore

/// The OpenAPI document of the HTTP API, served at `GET /openapi.yaml`: `push-relay.yaml` beside
/// this file (`openapi/push-relay.yaml` in the repository links to it), compiled into the binary
/// (`embedInCode`) so an installed relay needs no file beside it. `OpenAPIDocumentTests` fails if
/// the document and the router disagree on any route.
enum OpenAPIDocument {
    static let yaml = String(decoding: PackageResources.push_relay_yaml, as: UTF8.self)

    /// The served body, made once.
    static let body = ByteBuffer(bytes: PackageResources.push_relay_yaml)
}
