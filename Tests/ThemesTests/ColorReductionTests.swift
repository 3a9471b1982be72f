import Testing
@testable import Themes

/// Mapping 256 -> 16 -> 8 colours by nearest colour on the xterm palette.
struct ColorReductionTests {
    static let table: [(index: UInt8, sixteen: UInt8, eight: UInt8)] = [
        (196, 9, 1),     // pure red (255,0,0) is bright red, whose base is red
        (46, 10, 2),     // pure green
        (226, 11, 3),    // pure yellow
        (21, 4, 4),      // (0,0,255) is nearer xterm blue (0,0,238) than bright blue (92,92,255)
        (17, 0, 0),      // navy (0,0,95) is nearer black than blue
        (201, 13, 5),    // pure magenta
        (51, 14, 6),     // pure cyan
        (231, 15, 7),    // white corner of the cube
        (16, 0, 0),      // black corner of the cube
        (244, 8, 0),     // grey 128 is bright black (127)
        (232, 0, 0),     // darkest grey ramp step (8) is black
        (253, 7, 7),     // grey 218 is nearer white (229) than bright white (255)
        (249, 7, 7),     // grey 178 is equally far from white (229) and bright black (127): ties go to the lower index
        (124, 1, 1),     // (175,0,0) dark red
        (9, 9, 1),       // 16-colour indices map to themselves, then to their base
        (3, 3, 3),
    ]

    @Test("256-colour indices map to the nearest of 16, then of 8", arguments: table)
    func mapsToNearest(index: UInt8, sixteen: UInt8, eight: UInt8) {
        #expect(ColorReduction.nearest16(to: index) == sixteen)
        #expect(ColorReduction.nearest8(to: index) == eight)
    }

    @Test("every index maps inside the smaller palette", arguments: 0...255)
    func everyIndexMapsInside(index: Int) {
        #expect(ColorReduction.nearest16(to: UInt8(index)) < 16)
        #expect(ColorReduction.nearest8(to: UInt8(index)) < 8)
    }

    @Test("the cube and grey ramp follow xterm's levels")
    func paletteLevels() {
        #expect(ColorReduction.rgb(of: 16) == (0, 0, 0))
        #expect(ColorReduction.rgb(of: 17) == (0, 0, 95))
        #expect(ColorReduction.rgb(of: 196) == (255, 0, 0))
        #expect(ColorReduction.rgb(of: 214) == (255, 175, 0))
        #expect(ColorReduction.rgb(of: 232) == (8, 8, 8))
        #expect(ColorReduction.rgb(of: 255) == (238, 238, 238))
    }

    @Test("the terminal default is kept at every depth with colour and dropped in monochrome")
    func terminalDefaultIsKept() {
        for depth in [ColorDepth.colors8, .colors16, .colors256] {
            #expect(ColorReduction.reduce(.terminalDefault, to: depth) == .terminalDefault)
        }
        #expect(ColorReduction.reduce(.index(196), to: .monochrome) == .terminalDefault)
    }

    @Test("terminal colour counts map to depths", arguments: [(0, ColorDepth.monochrome), (2, .monochrome), (8, .colors8), (16, .colors16), (88, .colors16), (256, .colors256), (16_777_216, .colors256)])
    func colourCountMapsToDepth(count: Int, depth: ColorDepth) {
        #expect(ColorDepth(colorCount: count) == depth)
    }
}
