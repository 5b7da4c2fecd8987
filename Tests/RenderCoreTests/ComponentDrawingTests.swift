import BusSchema
import Testing

@testable import RenderCore

/// Each demo component drawn from its state, checked by decoded pixels at a few points (with a
/// tolerance), not by PNG bytes.
@Suite struct ComponentDrawingTests {
    /// Renders one view of `kind` filling a `width`×`height` scene, with `state` for instance `c1`.
    static func render(
        _ kind: String, config: String = "{}", view: String = "", extraViews: String = "", state: String?,
        width: Int = 200, height: Int = 200
    ) throws -> Image {
        let scene = """
            {"width":\(width),"height":\(height),"background":"#ffffff","views":[{"id":"v","frame":{"x":0,"y":0,
             "width":\(width),"height":\(height)}\(view),"component":{"kind":"\(kind)","id":"c1","config":\(config)}}\(extraViews)]}
            """
        let states = try state.map { ["c1": try JSONReader.parse($0)] } ?? [:]
        let typed = try Scene(json: scene)
        let (_, root) = SceneLayers.build(scene: typed, states: try TypedStates.decode(states, scene: typed))
        return try LayerRenderer(font: try FontFace.systemJapanese()).render(root, width: width, height: height)
    }

    /// A zoom view state at `scale`, not panned.
    static func zoom(scale: Double, overlayVisible: Bool = true) -> String {
        #"{"instance":"c1","t_ms":0,"scale":\#(scale),"min_scale":1,"max_scale":4,"offset":{"x":0,"y":0},"#
            + #""overlay_visible":\#(overlayVisible)}"#
    }

    /// A memo board state with `fields` (its memos, at least) and `background`.
    static func board(_ fields: String, background: String = "null") -> String {
        #"{"instance":"c1","t_ms":0,"selected":null,"arrange_order":"created","background":\#(background),\#(fields)}"#
    }

    static func near(_ a: RGBA8, _ b: RGBA8, _ tolerance: Int = 6) -> Bool {
        [(a.r, b.r), (a.g, b.g), (a.b, b.b), (a.a, b.a)].allSatisfy { abs(Int($0.0) - Int($0.1)) <= tolerance }
    }

    @Test func aHalfOpenDrawerShowsItsPanelSlidInAndDimsTheRest() throws {
        let image = try Self.render(
            "drawer", config: "{\"width\":100}", view: ",\"background\":\"#2c2c2e\"",
            state: #"{"instance":"c1","t_ms":0,"open":true,"progress":0.5,"listening_direction":"left","width":100,"#
                + #""edge":"left"}"#)
        #expect(Self.near(image.pixel(20, 190), RGBA8(0x2C, 0x2C, 0x2E, 255)), "panel over x 0..<50")
        #expect(Self.near(image.pixel(150, 100), RGBA8(204, 204, 204, 255)), "white under a 0.2 black dim")
        let closed = try Self.render(
            "drawer", config: "{\"width\":100}",
            state: #"{"instance":"c1","t_ms":0,"open":false,"progress":0,"listening_direction":"right"}"#)
        #expect(closed.pixel(20, 190) == RGBA8(255, 255, 255, 255), "closed, from a state without a tab: nothing drawn")
    }

    @Test func aSlidTableRowRevealsItsActionButtonsAndTheOthersStayWhite() throws {
        let image = try Self.render(
            "slideTable", config: "{\"rows\":5,\"row_height\":40}",
            state: #"{"instance":"c1","t_ms":0,"rows":5,"open_row":1,"offsets":[0,150,0,0,0],"scroll_offset":0}"#)
        #expect(Self.near(image.pixel(2, 72), RGBA8(0x34, 0xC7, 0x59, 255)), "first button (green) at the left")
        #expect(Self.near(image.pixel(140, 72), RGBA8(0xFF, 0x3B, 0x30, 255)), "second button (red)")
        #expect(image.pixel(190, 5) == RGBA8(255, 255, 255, 255), "row 0 is not slid")
        #expect(image.pixel(190, 60) == RGBA8(255, 255, 255, 255), "an open row is not a selected one: white")
    }

    @Test func aPulledHeaderIsAsTallAsThePullAndShowsItsArrow() throws {
        let image = try Self.render(
            "pullToRefresh",
            state: """
                {"instance":"c1","t_ms":0,"phase":"pullingDown","offset":40,"threshold":80,"label":"","arrow_angle":0,
                 "header_height":60}
                """)
        #expect(Self.near(image.pixel(150, 10), RGBA8(0xE5, 0xE5, 0xEA, 255)), "header band")
        #expect(image.pixel(150, 45) == RGBA8(255, 255, 255, 255), "nothing below the pull")
        #expect(Self.near(image.pixel(28, 20), RGBA8(0x8E, 0x8E, 0x93, 255)), "the arrow")
    }

    @Test func thePagerMovesOnlyItsMenuUpAndPlacesPagesByOffset() throws {
        let config = "{\"page_count\":3,\"nav_height\":60,\"menu_height\":40}"
        func state(headerOffset: Double, pageOffset: Double) -> String {
            """
            {"instance":"c1","t_ms":0,"page":0,"page_count":3,"header_offset":\(headerOffset),"progress":0,"label":"ニュース","loading":false,
             "page_offset":\(pageOffset),"pull_offset":0,"scroll_offset":0}
            """
        }
        let red = RGBA8(0xD7, 0x26, 0x3D, 255)
        let shown = try Self.render("pager", config: config, state: state(headerOffset: 0, pageOffset: 0))
        #expect(Self.near(shown.pixel(190, 5), red), "the progress area")
        #expect(Self.near(shown.pixel(190, 70), RGBA8(255, 255, 255, 255)), "the menu under it")
        #expect(Self.near(shown.pixel(5, 195), RGBA8(0xFD, 0xE2, 0xE4, 255)), "page 0")
        let moved = try Self.render("pager", config: config, state: state(headerOffset: 30, pageOffset: 0.5))
        #expect(Self.near(moved.pixel(190, 35), RGBA8(255, 255, 255, 255)), "the menu moved up 30 pt")
        #expect(Self.near(moved.pixel(190, 5), red), "the progress area stays")
        #expect(Self.near(moved.pixel(90, 195), RGBA8(0xFD, 0xE2, 0xE4, 255)), "page 0 on the left half")
        #expect(Self.near(moved.pixel(105, 195), RGBA8(0xE2, 0xEC, 0xE9, 255)), "page 1 on the right half")
        // However far the state says, the menu moves up by the navigation bar's 44 pt at most:
        // the status bar's 16 pt of the progress area stay, and the menu stays in view.
        let far = try Self.render("pager", config: config, state: state(headerOffset: 100, pageOffset: 0))
        #expect(Self.near(far.pixel(190, 10), red), "the top of the progress area stays")
        #expect(Self.near(far.pixel(190, 30), RGBA8(255, 255, 255, 255)), "the menu, 16 … 56")
        #expect(Self.near(far.pixel(190, 70), RGBA8(0xFD, 0xE2, 0xE4, 255)), "page 0 under it")
    }

    @Test func aFinishedLoadsProgressBarFadesOutInsteadOfStayingFull() throws {
        let config = "{\"page_count\":3,\"nav_height\":60,\"menu_height\":40}"
        func bar(_ fields: String) throws -> RGBA8 {
            try Self.render(
                "pager", config: config,
                state: """
                    {"instance":"c1","t_ms":0,"page":0,"page_count":3,"header_offset":0,"progress":100,"label":"ニュース","loading":false,
                     "page_offset":0,"pull_offset":0,"scroll_offset":0\(fields)}
                    """
            ).pixel(150, 101)
        }
        #expect(Self.near(try bar(""), RGBA8(0x0A, 0x84, 0xFF, 255)), "the full bar")
        #expect(Self.near(try bar(",\"progress_opacity\":0"), RGBA8(0xFD, 0xE2, 0xE4, 255)), "faded: page 0 shows")
        let half = try bar(",\"progress_opacity\":0.5")
        #expect(Self.near(half, RGBA8(0x84, 0xB3, 0xF2, 255), 8), "half-way: \(half)")
    }

    @Test(arguments: [
        (
            "pager",
            #"{"instance":"c1","t_ms":0,"page":0,"page_count":9223372036854775807,"page_offset":1e300,"#
                + #""header_offset":-1e300,"progress":0,"label":"","loading":false}"#
        ),
        (
            "slideTable",
            #"{"instance":"c1","t_ms":0,"rows":9223372036854775807,"scroll_offset":1e300,"offsets":[],"open_row":null}"#
        ),
        (
            "slideTable",
            #"{"instance":"c1","t_ms":0,"rows":-9223372036854775808,"scroll_offset":-1e300,"offsets":[],"open_row":null}"#
        ),
        (
            "scrollView",
            #"{"instance":"c1","t_ms":0,"offset":{"x":0,"y":1e300},"content_size":{"width":0,"height":0},"#
                + #""insets":{"top":0,"left":0,"bottom":0,"right":0},"zoom_scale":1,"dragging":false,"#
                + #""decelerating":false,"zooming":false,"overlays_visible":true}"#
        ),
    ])
    func hugeCountsAndOffsetsInAStateAreRefusedAtTheEdgeOrDrawWithoutTrapping(kind: String, state: String) throws {
        // The generated decoder refuses what its schema rules out (a negative row count or
        // header offset), naming the field; whatever it accepts, however large, must draw.
        do {
            let image = try Self.render(kind, state: state)
            #expect(image.width > 0)
        } catch let error as CodecError {
            #expect(error.code == .invalidValue, "\(error)")
            #expect("\(error)".contains("is outside"), "\(error)")
        }
    }

    @Test func canvasStrokesAreDrawnAlongTheirPoints() throws {
        let image = try Self.render(
            "canvas",
            state: """
                {"instance":"c1","t_ms":0,"strokes":[{"id":1,"points":[[20,100],[180,100]],"width":6,"color":"#1e3a8a"}],
                 "active":null,"zoom_scale":1}
                """)
        #expect(Self.near(image.pixel(100, 100), RGBA8(0x1E, 0x3A, 0x8A, 255)), "on the stroke")
        #expect(image.pixel(100, 110) == RGBA8(255, 255, 255, 255), "off the stroke")
    }

    @Test func theZoomedImageScalesAndItsOverlayFollowsVisibility() throws {
        let caption = ",{\"id\":\"cap\",\"frame\":{\"x\":20,\"y\":150,\"width\":160,\"height\":40}}"
        func overlay(visible: Bool) throws -> RGBA8 {
            try Self.render(
                "zoomView", config: "{\"overlays\":[\"cap\"]}", extraViews: caption,
                state: Self.zoom(scale: 1, overlayVisible: visible)
            ).pixel(30, 160)
        }
        let shown = try overlay(visible: true)
        let hidden = try overlay(visible: false)
        #expect(Int(shown.g) < Int(hidden.g) - 20, "the caption darkens the picture under it: \(shown) vs \(hidden)")
        let image = try Self.render(
            "zoomView", state: Self.zoom(scale: 2))
        // At scale 2 the horizon (55 % of the image height) moves from y 110 to y 220, off the view.
        let sky = image.pixel(100, 190)
        #expect(sky.b > sky.g && sky.g > sky.r, "still sky at y 190")
        let fit = try Self.render("zoomView", state: Self.zoom(scale: 1))
        let ground = fit.pixel(100, 190)
        #expect(ground.g > ground.b, "ground at y 190 when fitted")
    }

    @Test func aMemoBoardWithoutABackgroundImageToShowDrawsCork() throws {
        // None set, and one set whose image was not read (no image given for its path).
        for background in ["null", "\"deploy/assets/missing.png\""] {
            let cork = try Self.render(
                "memoBoard", state: Self.board("\"memos\":[]", background: background))
            let corkPixels = (0..<200).flatMap { y in (0..<200).map { x in cork.pixel(x, y) } }
            #expect(Set(corkPixels).count > 1, "the cork has dots")
            #expect(corkPixels.contains(RGBA8(0xC8, 0x9B, 0x5E, 255)), "on a cork tone")
        }
    }

    @Test func aMemoSearchHighlightsTheMatchesAndFadesTheOtherMemos() throws {
        let memos = """
            "memos":[{"id":"m1","x":10,"y":10,"width":80,"height":60,"scale":1,"rotation":0,"z":0,"color":"yellow",
              "minimized":false,"text":""},
             {"id":"m2","x":110,"y":10,"width":80,"height":60,"scale":1,"rotation":0,"z":0,"color":"yellow",
              "minimized":false,"text":""}]
            """
        let yellow = RGBA8(0xFF, 0xF3, 0xA0, 255)
        let plain = try Self.render("memoBoard", state: Self.board(memos))
        #expect(Self.near(plain.pixel(60, 50), yellow) && Self.near(plain.pixel(160, 50), yellow))
        let searched = try Self.render(
            "memoBoard",
            state: Self.board(
                memos + #","search":{"query":"a","matches":[{"memo_id":"m1","trashed":false,"ranges":[[0,1]]}]}"#))
        #expect(Self.near(searched.pixel(60, 50), yellow), "the match stays as it was")
        let edge = searched.pixel(11, 50)
        #expect(edge.r > 200 && edge.g > 120 && edge.g < 190 && edge.b < 60, "the match's orange border: \(edge)")
        let faded = searched.pixel(160, 50)
        #expect(!Self.near(faded, yellow, 20), "the other memo is faded into the board: \(faded)")
        let board = try Self.render("memoBoard", state: Self.board(#""memos":[]"#)).pixel(160, 50)
        #expect(faded != board, "but still there: \(faded) over the board's \(board)")
    }
}
