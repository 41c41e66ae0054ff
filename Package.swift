// swift-tools-version:6.0
// PauseCam: a Linux multi-camera rig controller. The target graph below is the architecture: PauseCamCore may
// depend on nothing but Foundation, and PauseCamSystem is the only Swift module that sees a C library.
import PackageDescription

/// A system-library target for one C library: a module map and a shim header, no logic.
func cLibrary(_ name: String, pkgConfig: String?, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "PauseCam",
    products: [
        .executable(name: "pausecam", targets: ["pausecam"]),
    ],
    targets: [
        cLibrary("CFFmpeg", pkgConfig: "libavformat",
                 apt: ["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"]),
        cLibrary("CV4L2", pkgConfig: "libv4l2", apt: ["libv4l-dev"]),
        cLibrary("CUdev", pkgConfig: "libudev", apt: ["libudev-dev"]),
        cLibrary("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        cLibrary("CYAML", pkgConfig: "yaml-0.1", apt: ["libyaml-dev"]),
        cLibrary("CEdit", pkgConfig: "libedit", apt: ["libedit-dev"]),
        cLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"]),
        cLibrary("CQRencode", pkgConfig: "libqrencode", apt: ["libqrencode-dev"]),
        cLibrary("CMosquitto", pkgConfig: "libmosquitto", apt: ["libmosquitto-dev"]),
        cLibrary("CLiblo", pkgConfig: "liblo", apt: ["liblo-dev"]),
        cLibrary("CGpiod", pkgConfig: "libgpiod", apt: ["libgpiod-dev"]),
        // glibc's <malloc.h> (heap figures for the soak), which Swift's Glibc module leaves out; part of libc.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // glibc's <sys/timex.h> (the kernel's clock status for a group's shared clock), also left out of Glibc.
        .systemLibrary(name: "CTimex", path: "Sources/CTimex"),

        // The monitor's page is three plain files, embedded in the code so the installed binary stands alone.
        .target(name: "PauseCamCore", dependencies: [],
                resources: [.embedInCode("Monitor/Page/index.html"), .embedInCode("Monitor/Page/app.css"),
                            .embedInCode("Monitor/Page/app.js")]),
        .target(name: "PauseCamVirtual", dependencies: ["PauseCamCore"]),
        .target(name: "PauseCamSystem",
                dependencies: ["PauseCamCore", "CFFmpeg", "CV4L2", "CUdev", "CALSA", "CYAML", "CEdit", "CMalloc",
                               "CMicroHTTPD", "CQRencode", "CMosquitto", "CTimex", "CLiblo", "CGpiod"]),
        .target(name: "PauseCamShell", dependencies: ["PauseCamCore"]),
        .executableTarget(name: "pausecam",
                          dependencies: ["PauseCamCore", "PauseCamVirtual", "PauseCamSystem", "PauseCamShell"]),

        .executableTarget(name: "PauseCamBench",
                          dependencies: ["PauseCamCore", "PauseCamVirtual", "PauseCamSystem", "PauseCamTestSupport"]),

        // Outside programs the tests and the bench start (a Mosquitto broker on loopback), and the tests' XCTest
        // face of them (skips that name the missing package). No product depends on either.
        .target(name: "PauseCamTestSupport", dependencies: []),
        .target(name: "PauseCamTestHelpers", dependencies: ["PauseCamTestSupport"]),

        .testTarget(name: "PauseCamCoreTests", dependencies: ["PauseCamCore", "PauseCamVirtual"]),
        .testTarget(name: "PauseCamShellTests", dependencies: ["PauseCamCore", "PauseCamShell"]),
        .testTarget(name: "PauseCamSystemTests", dependencies: ["PauseCamCore", "PauseCamSystem", "PauseCamVirtual",
                                                                "PauseCamTestHelpers"],
                    exclude: ["BrokenRigs", "umockdev"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PauseCamCore", "PauseCamTestHelpers"], exclude: ["Rigs", "Snapshots", "Browser", "FCPXML"]),
    ],
    swiftLanguageModes: [.v6]
)
