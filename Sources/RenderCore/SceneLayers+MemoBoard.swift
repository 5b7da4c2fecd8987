import BusSchema

/// A FloatyMemo+-style memo board drawn from its state (`state.memoBoard`): the background
/// image (or cork without one), the memos as rotated, scaled sticky notes, and over them one
/// of the board's two overlays: while a search runs, the search bar pulled down from the top
/// with the matching memos highlighted and the others dimmed ("マッチしたメモだけがアクティブに
/// なります"); while a memo is edited, the editor (the memo enlarged over a dimmed board, its bar
/// faded in), which as a modal view covers the board and its search bar.
extension SceneLayers {
    /// Sizes and colours of the board's drawing. The source names no sizes for the search bar
    /// or the editor: the bar is UIKit's 44 pt UISearchBar, the rest is ours, named here once.
    public enum MemoBoardStyle {
        /// The board's own colour, under the background.
        static let board = Color(hex: 0xC8A165)
        /// The pulled-down search bar: UISearchBar's height and its default blue-grey gradient.
        public static let searchBarHeight = 44.0
        static let searchBarTop = Color(hex: 0xCDD5DF)
        static let searchBarBottom = Color(hex: 0xA5B1C2)
        /// The rounded text field inside it.
        static let fieldInset = 7.0
        static let fieldText = Color(hex: 0x333333)
        static let fieldGlyph = Color(hex: 0x8E8E93)
        static let countWidth = 112.0
        /// Memos that do not match while a search runs: dimmed, inactive.
        public static let dimmedOpacity = 0.3
        /// Memos that match: an orange ring with a glow.
        public static let highlight = Color(hex: 0xFF9500)
        static let highlightWidth = 3.0
        /// The editor: the memo enlarged to the board less this margin on every side, at most
        /// this much taller than wide, over the board dimmed by a black veil.
        public static let editorMargin = 24.0
        static let editorMaxAspect = 1.25
        public static let veil = Color(hex: 0x000000, alpha: 0.4)
        /// The editor's bar ("完了" to close) along its top.
        public static let editorBarHeight = 44.0
        static let editorBar = Color(hex: 0xF7F7F7, alpha: 0.92)
        static let editorButton = Color(hex: 0x007AFF)
        static let editorFontSize = 20.0
    }

    /// The names of the layers the board adds over its memos (memo layers are named by memo id).
    public enum MemoBoardLayer {
        public static let background = "background"
        public static let searchBar = "search.bar"
        public static let veil = "editor.veil"
        public static let editor = "editor.memo"
        public static let editorBar = "editor.bar"
    }

    /// The board's sublayers. `images` holds the background images that could be read, by path.
    static func memoBoard(
        _ state: MemoBoardState?, config: Scene.Config.MemoBoard, size: Size, images: [String: ImageContent]
    ) -> [Layer] {
        var layers = [boardBackground(state, config: config, size: size, images: images)]
        guard let state else { return layers }
        let search = activeSearch(state)
        let editing = editedMemo(state)
        layers += memos(state, search: search)
        if let editing {
            layers += editor(editing, size: size)
        } else if let search {
            layers.append(searchBar(search, width: size.width))
        }
        return layers
    }

    /// The configured image filling the board, or cork when none is set or it could not be read.
    private static func boardBackground(
        _ state: MemoBoardState?, config: Scene.Config.MemoBoard, size: Size, images: [String: ImageContent]
    ) -> Layer {
        guard let path = backgroundPath(state, config: config), let image = images[path] else {
            return boardBackground(size: size)
        }
        var layer = Layer(
            name: MemoBoardLayer.background, frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        layer.backgroundColor = MemoBoardStyle.board
        layer.contents = image
        return layer
    }

    /// The background image path the board shows: its state's setting (nil: none), else its
    /// config's until a state arrives.
    public static func backgroundPath(_ state: MemoBoardState?, config: Scene.Config.MemoBoard) -> String? {
        state.map(\.background) ?? config.background
    }

    /// The background image paths of `scene`'s memo boards with these states.
    public static func backgroundPaths(scene: Scene, states: [String: ComponentState]) -> Set<String> {
        var paths: Set<String> = []
        for view in scene.views {
            guard let component = view.component, case .memoBoard(let config) = component.config else { continue }
            let state = states[component.id]?.message as? MemoBoardState
            if let path = backgroundPath(state, config: config) { paths.insert(path) }
        }
        return paths
    }

    /// The search shown: a state's `search` with a query, as (query, memo ids matching on the
    /// board, matches in the trash).
    private static func activeSearch(_ state: MemoBoardState) -> (query: String, board: Set<String>, trashed: Int)? {
        guard let search = state.search ?? nil else { return nil }
        var board: Set<String> = []
        var trashed = 0
        for match in search.matches {
            if match.trashed { trashed += 1 } else { board.insert(match.memoID) }
        }
        return (search.query, board, trashed)
    }

    /// The memo open in the editor, if it is on the board.
    private static func editedMemo(_ state: MemoBoardState) -> MemoBoardState.Memo? {
        guard let id = state.editing ?? nil else { return nil }
        return state.memos.first { $0.id == id }
    }

    private static func memos(
        _ state: MemoBoardState, search: (query: String, board: Set<String>, trashed: Int)?
    ) -> [Layer] {
        let selected = state.selected
        return state.memos.sorted { $0.z < $1.z }.map { memo in
            let id = memo.id
            let isMinimized = memo.minimized
            var layer = Layer(name: id, frame: memo.drawnFrame)
            layer.backgroundColor = memoColor(memo)
            if !isMinimized {
                layer.transform = AffineTransform.scale(memo.scale, memo.scale).concatenating(.rotation(memo.rotation))
            }
            layer.masksToBounds = isMinimized
            layer.shadow = Shadow(opacity: 0.35, offset: Size(0, isMinimized ? 1 : 3), radius: isMinimized ? 2 : 4)
            layer.cornerRadius = 2
            let isSelected = selected != nil && id == selected
            layer.borderWidth = isSelected ? 2 : 0.5
            layer.borderColor = isSelected ? Color(hex: 0x1A73E8) : Color(hex: 0x000000, alpha: 0.15)
            layer.text = TextContent(
                string: memo.text, fontSize: isMinimized ? 12 : 15, color: Color(hex: 0x333333),
                inset: isMinimized ? 6 : 8, singleLine: isMinimized)
            if let search {
                if search.board.contains(id) {
                    layer.borderWidth = MemoBoardStyle.highlightWidth
                    layer.borderColor = MemoBoardStyle.highlight
                    layer.shadow = Shadow(color: MemoBoardStyle.highlight, opacity: 0.9, offset: Size(0, 0), radius: 6)
                } else {
                    layer.opacity = MemoBoardStyle.dimmedOpacity
                }
            }
            return layer
        }
    }

    private static func memoColor(_ memo: MemoBoardState.Memo) -> Color {
        Color(hex: palette[memo.color] ?? 0xFFF3A0)
    }

    /// The search bar pulled down over the board's top: a rounded field with a magnifier and the
    /// query, and how many memos match (those in the trash counted apart).
    private static func searchBar(_ search: (query: String, board: Set<String>, trashed: Int), width: Double) -> Layer {
        let style = MemoBoardStyle.self
        var bar = Layer(
            name: MemoBoardLayer.searchBar, frame: Rect(x: 0, y: 0, width: width, height: style.searchBarHeight))
        bar.backgroundColor = style.searchBarBottom
        bar.gradient = LinearGradient(colors: [style.searchBarTop, style.searchBarBottom])
        bar.shadow = Shadow(opacity: 0.3, offset: Size(0, 1), radius: 2, path: Path(rect: bar.bounds))
        let inset = style.fieldInset
        let fieldHeight = style.searchBarHeight - 2 * inset
        var field = Layer(
            name: "field",
            frame: Rect(x: 8, y: inset, width: max(0, width - 16 - style.countWidth), height: fieldHeight))
        field.backgroundColor = .white
        field.cornerRadius = fieldHeight / 2
        field.borderWidth = 0.5
        field.borderColor = Color(hex: 0x000000, alpha: 0.25)
        // The magnifier: a ring and its handle.
        var glyph = Layer(name: "magnifier", frame: Rect(x: 9, y: 7, width: 16, height: 16))
        var ring = Path()
        ring.addEllipse(in: Rect(x: 0, y: 0, width: 11, height: 11))
        var hole = Path()
        hole.addEllipse(in: Rect(x: 2, y: 2, width: 7, height: 7))
        for subpath in hole.subpaths { ring.addPolygon(subpath.reversed()) }
        ring.addPolygon([Point(8.5, 9.9), Point(9.9, 8.5), Point(14.5, 13.1), Point(13.1, 14.5)])
        glyph.shape = ShapeContent(path: ring, color: style.fieldGlyph)
        var query = Layer(
            name: "query", frame: Rect(x: 30, y: 0, width: max(0, field.frame.width - 36), height: fieldHeight))
        query.text = TextContent(string: search.query, fontSize: 15, color: style.fieldText, inset: 6, singleLine: true)
        field.sublayers = [glyph, query]
        var count = Layer(
            name: "count",
            frame: Rect(x: width - style.countWidth, y: inset, width: style.countWidth, height: fieldHeight))
        let inTrash = search.trashed > 0 ? " ゴミ箱\(search.trashed)" : ""
        count.text = TextContent(
            string: "\(search.board.count)件\(inTrash)", fontSize: 13, color: Color(hex: 0x1C1C1E), inset: 6,
            singleLine: true, bold: true)
        bar.sublayers = [field, count]
        return bar
    }

    /// Where the editor shows a memo on a board of `size`: the board less the margin, centred,
    /// at most ``MemoBoardStyle/editorMaxAspect`` times taller than wide.
    public static func editorFrame(size: Size) -> Rect {
        let margin = MemoBoardStyle.editorMargin
        let width = max(0, size.width - 2 * margin)
        let height = max(0, min(size.height - 2 * margin, width * MemoBoardStyle.editorMaxAspect))
        return Rect(x: margin, y: (size.height - height) / 2, width: width, height: height)
    }

    /// The veil, the enlarged memo and the editor's bar.
    private static func editor(_ memo: MemoBoardState.Memo, size: Size) -> [Layer] {
        let style = MemoBoardStyle.self
        var veil = Layer(name: MemoBoardLayer.veil, frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        veil.backgroundColor = style.veil
        let frame = editorFrame(size: size)
        var editor = Layer(name: MemoBoardLayer.editor, frame: frame)
        editor.backgroundColor = memoColor(memo)
        editor.cornerRadius = 6
        editor.shadow = Shadow(
            opacity: 0.5, offset: Size(0, 6), radius: 12, path: Path(roundedRect: editor.bounds, cornerRadius: 6))
        var text = Layer(
            name: "text",
            frame: Rect(
                x: 0, y: style.editorBarHeight, width: frame.width,
                height: max(0, frame.height - style.editorBarHeight)))
        text.text = TextContent(
            string: memo.text, fontSize: style.editorFontSize, color: Color(hex: 0x222222), inset: 16)
        editor.sublayers = [text]
        var bar = Layer(
            name: MemoBoardLayer.editorBar,
            frame: Rect(x: frame.minX, y: frame.minY, width: frame.width, height: style.editorBarHeight))
        bar.backgroundColor = style.editorBar
        bar.cornerRadius = 6
        var done = Layer(
            name: "done", frame: Rect(x: frame.width - 72, y: 0, width: 72, height: style.editorBarHeight))
        done.text = TextContent(
            string: "完了", fontSize: 17, color: style.editorButton, inset: 12, singleLine: true, bold: true)
        var title = Layer(
            name: "title", frame: Rect(x: 0, y: 0, width: frame.width - 72, height: style.editorBarHeight))
        title.text = TextContent(
            string: "メモを編集", fontSize: 17, color: Color(hex: 0x1C1C1E), inset: 12, singleLine: true)
        bar.sublayers = [title, done]
        return [veil, editor, bar]
    }

    /// How the editor starts when it opens on `memo`: its enlarged memo placed, scaled and
    /// rotated to cover the memo on the board (the memo then grows to ``editorFrame(size:)``).
    /// - Returns: the editor layer's origin, uniform scale and rotation at the start.
    public static func editorStart(
        memo: MemoBoardState.Memo, editor: Rect
    ) -> (origin: Point, scale: Double, rotation: Double)? {
        guard editor.width > 0 else { return nil }
        let frame = memo.drawnFrame
        let centre = Point(frame.minX + frame.width / 2, frame.minY + frame.height / 2)
        return (
            Point(centre.x - editor.width / 2, centre.y - editor.height / 2),
            frame.width * memo.drawnScale / editor.width,
            memo.drawnRotation
        )
    }
}

extension MemoBoardState.Memo {
    /// Where the memo is drawn before its transform: a minimized one folds to a strip at most
    /// ``SceneLayers/minimizedMemoHeight`` tall.
    public var drawnFrame: Rect {
        Rect(
            x: self.x, y: self.y, width: self.width,
            height: self.minimized ? min(self.height, SceneLayers.minimizedMemoHeight) : self.height)
    }

    /// The scale it is drawn at: a minimized memo is drawn upright at its size.
    public var drawnScale: Double { self.minimized ? 1 : self.scale }

    /// The rotation it is drawn at (radians; 0 while minimized).
    public var drawnRotation: Double { self.minimized ? 0 : self.rotation }
}
