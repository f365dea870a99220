// swift-tools-version:6.1
import PackageDescription

// The per-stage regression suite, on package-benchmark (percentiles, malloc counts, baselines).
// A package of its own so that the root package, which CI builds on every run, does not build
// package-benchmark. `swift package benchmark` here; see docs/benchmarks.md, "The per-stage suite".
let package = Package(
    name: "PushRelayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "PushRelay", path: "../.."),
        // MallocInterposer alone: malloc counts without jemalloc or the Swift 6.3 runtime interposer.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PipelineStages",
            dependencies: [
                .product(name: "APNs", package: "PushRelay"),
                .product(name: "PushCore", package: "PushRelay"),
                .product(name: "PushStore", package: "PushRelay"),
                .product(name: "StoreContract", package: "PushRelay"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PipelineStages",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
