import Testing

@testable import RenderCore

/// What changed between two frames, as rectangles a viewer can trust: every changed pixel is in
/// one, and an unchanged frame has none.
@Suite struct ImageDamageTests {
    static func frame() throws -> Image { try Image(width: 200, height: 120, fill: RGBA8(10, 20, 30, 255)) }

    static func covered(_ x: Int, _ y: Int, by rects: [PixelRect]) -> Bool {
        rects.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
    }

    @Test func noPreviousFrameOrAnotherSizeIsAllDamaged() throws {
        let image = try Self.frame()
        #expect(image.damage(since: nil) == [PixelRect(x: 0, y: 0, width: 200, height: 120)])
        let other = try Image(width: 100, height: 120)
        #expect(image.damage(since: other) == [PixelRect(x: 0, y: 0, width: 200, height: 120)])
    }

    @Test func theSameFrameHasNoDamage() throws {
        #expect(try Self.frame().damage(since: Self.frame()).isEmpty)
    }

    @Test func changedPixelsFarApartGiveTightSeparateBands() throws {
        let before = try Self.frame()
        var after = before
        after.setPixel(5, 3, RGBA8(255, 0, 0, 255))
        after.setPixel(9, 4, RGBA8(255, 0, 0, 255))
        after.setPixel(150, 100, RGBA8(0, 255, 0, 255))
        let damage = after.damage(since: before)
        #expect(
            damage == [
                PixelRect(x: 5, y: 3, width: 5, height: 2), PixelRect(x: 150, y: 100, width: 1, height: 1),
            ])
    }

    @Test func tooManyBandsCollapseToOneBoxCoveringEveryChange() throws {
        let before = try Self.frame()
        var after = before
        var changed: [(Int, Int)] = []
        for y in stride(from: 0, to: 120, by: 10) {
            let x = (y * 7) % 200
            after.setPixel(x, y, RGBA8(255, 255, 255, 255))
            changed.append((x, y))
        }
        let damage = after.damage(since: before, maximumCount: 4)
        #expect(damage.count == 1)
        #expect(changed.allSatisfy { Self.covered($0.0, $0.1, by: damage) })
    }
}
