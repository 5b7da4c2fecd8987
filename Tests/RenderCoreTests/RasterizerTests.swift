import Testing

@testable import RenderCore

@Suite struct RasterizerTests {
    @Test func pixelAlignedRectangleIsFullyCoveredInsideAndEmptyOutside() throws {
        let mask = try Rasterizer.fill(Path(rect: Rect(x: 2, y: 3, width: 5, height: 4)), width: 10, height: 10)
        for y in 0..<10 {
            for x in 0..<10 {
                let inside = (2..<7).contains(x) && (3..<7).contains(y)
                #expect(mask.coverage(x, y) == (inside ? 255 : 0), "(\(x), \(y))")
            }
        }
    }

    /// Cards and memos: fractional placements, scales, corners taller than the shape allows,
    /// shapes cut by the canvas's edges.
    @Test(arguments: [
        (Rect(x: 16.25, y: 10.6, width: 120, height: 40), 8.0, 1.0),
        (Rect(x: -30.5, y: -7.3, width: 90, height: 70), 12, 2),
        (Rect(x: 3, y: 4, width: 60, height: 20), 30, 1), (Rect(x: 100.7, y: 60.2, width: 80, height: 90), 6, 1.5),
    ])
    func aRoundedRectanglesStraightRowsCopiedFromOneScannedRowAreTheScannedShape(
        rect: Rect, radius: Double, scale: Double
    )
        throws
    {
        let m = AffineTransform.scale(scale, scale).concatenating(.translation(rect.minX, rect.minY))
        let bounds = Rect(x: 0, y: 0, width: rect.width, height: rect.height)
        let path = Path(roundedRect: bounds, cornerRadius: radius).applying(m)
        let box = LayerRenderer.Box(bounds, m)
        let clamped = min(radius, rect.width / 2, rect.height / 2)
        let (width, height) = (160, 120)
        let rows = try Rasterizer.fillRoundedRect(
            path, minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, cornerHeight: clamped * scale,
            width: width, height: height)
        let scanned = try Rasterizer.fill(path, width: width, height: height)
        var worst = 0
        for y in 0..<height {
            for x in 0..<width { worst = max(worst, abs(Int(rows.coverage(x, y)) - Int(scanned.coverage(x, y)))) }
        }
        #expect(worst == 0, "coverage differs by \(worst)")
        #expect(rows.bytes.contains(255) && rows.rect.width <= width && rows.rect.height <= height)
    }

    @Test func halfPixelEdgesAreHalfCovered() throws {
        let mask = try Rasterizer.fill(Path(rect: Rect(x: 1.5, y: 1, width: 3, height: 2)), width: 8, height: 8)
        #expect(mask.coverage(1, 1) == 128)
        #expect(mask.coverage(2, 1) == 255)
        #expect(mask.coverage(4, 1) == 128)
    }

    @Test func reversedInnerSubpathCutsAHoleUnderTheNonZeroRule() throws {
        var ring = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        ring.addRect(Rect(x: 3, y: 3, width: 4, height: 4), reversed: true)
        let holed = try Rasterizer.fill(ring, width: 10, height: 10)
        #expect(holed.coverage(5, 5) == 0)
        #expect(holed.coverage(1, 1) == 255)
        // The same inner rectangle running the same way stays filled (non-zero, not even-odd).
        var doubled = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        doubled.addRect(Rect(x: 3, y: 3, width: 4, height: 4))
        #expect(try Rasterizer.fill(doubled, width: 10, height: 10).coverage(5, 5) == 255)
    }

    @Test func shapesPartlyOffCanvasAreClipped() throws {
        let mask = try Rasterizer.fill(Path(rect: Rect(x: -5, y: -5, width: 8, height: 8)), width: 6, height: 6)
        #expect(mask.coverage(0, 0) == 255)
        #expect(mask.coverage(2, 2) == 255)
        #expect(mask.coverage(3, 3) == 0)
    }

    @Test func layerOpacityAndRotationComposite() throws {
        var root = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        var square = Layer(frame: Rect(x: 5, y: 5, width: 10, height: 10))
        square.backgroundColor = Color(red: 1, green: 0, blue: 0)
        square.opacity = 0.5
        root.sublayers.append(square)
        let image = try LayerRenderer().render(root, width: 20, height: 20)
        #expect(image.pixel(10, 10) == RGBA8(128, 0, 0, 128))
        #expect(image.pixel(2, 2) == .clear)
        square.opacity = 1
        square.transform = .rotation(.pi / 4)
        root.sublayers = [square]
        let rotated = try LayerRenderer().render(root, width: 20, height: 20)
        #expect(rotated.pixel(10, 4).a > 200)  // a corner of the diamond reaches up
        #expect(rotated.pixel(5, 5).a == 0)  // the unrotated corner is empty
    }
}

@Suite struct HostileGeometryTests {
    @Test func farAwayAndHugeShapesAreClippedNotCrashes() throws {
        #expect(
            try Rasterizer.fill(Path(rect: Rect(x: 1e300, y: -1e300, width: 5, height: 5)), width: 8, height: 8)
                == .empty)
        let everything = try Rasterizer.fill(
            Path(rect: Rect(x: -1e300, y: -1e300, width: 2e300, height: 2e300)), width: 8, height: 8)
        #expect(everything.coverage(4, 4) == 255)
    }

    @Test func absurdLayerValuesAreErrorsOrClippedNotCrashes() throws {
        var root = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        var huge = Layer(frame: Rect(x: -1e12, y: -1e12, width: 4e12, height: 4e12))
        huge.cornerRadius = 1e300
        huge.backgroundColor = .black
        root.sublayers = [huge]
        #expect(try LayerRenderer().render(root, width: 20, height: 20).pixel(10, 10) == RGBA8(0, 0, 0, 255))
        var shadowed = Layer(frame: Rect(x: 2, y: 2, width: 5, height: 5))
        shadowed.backgroundColor = .black
        shadowed.shadow = Shadow(opacity: 1, radius: 1e300)
        root.sublayers = [shadowed]
        #expect(throws: RenderError.self) { try LayerRenderer().render(root, width: 20, height: 20) }
        shadowed.shadow = Shadow(opacity: 1, radius: -2)
        root.sublayers = [shadowed]
        #expect(throws: RenderError.self) { try LayerRenderer().render(root, width: 20, height: 20) }
    }

    @Test func tinyImagesBlurWithoutTrouble() throws {
        for (w, h) in [(1, 1), (1, 7), (9, 1)] {
            var image = try Image(width: w, height: h, fill: RGBA8(10, 20, 30, 40))
            try BlurKernel().apply(.gaussian(sigma: 100), to: &image)
            try BlurKernel().apply(.strong, to: &image)
            #expect(image.bytes.count == w * h * 4)
            #expect(image.pixel(0, 0) == RGBA8(10, 20, 30, 40))
        }
    }
}
