import Foundation

/// Makes chapter titles unique, because DaVinci Resolve (and other editors) mishandle markers that share a name:
/// the second `Interview` becomes `Interview 2`, the third `Interview 3`, skipping any suffix another title
/// already uses. The first of each name keeps it unchanged.
public enum ChapterTitles {
    /// The titles in order, each made unique. Linear in the number of titles, however many share a name: each
    /// name's search for a free suffix resumes where its last one ended (suffixes only ever become taken).
    public static func unique(_ titles: [String]) -> [String] {
        var taken = Set(titles)
        var seen: Set<String> = []
        var nextNumber: [String: Int] = [:]
        var result: [String] = []
        result.reserveCapacity(titles.count)
        for title in titles {
            guard seen.contains(title) else {
                seen.insert(title)
                result.append(title)
                continue
            }
            var number = nextNumber[title] ?? 2
            while taken.contains("\(title) \(number)") { number += 1 }
            nextNumber[title] = number + 1
            let renamed = "\(title) \(number)"
            taken.insert(renamed)
            seen.insert(renamed)
            result.append(renamed)
        }
        return result
    }

    /// The movie's chapters with unique titles (the hook where a recorder builds its chapters).
    public static func unique(_ chapters: [Chapter]) -> [Chapter] {
        zip(chapters, unique(chapters.map(\.title))).map { chapter, title in
            Chapter(title: title, start: chapter.start, end: chapter.end)
        }
    }
}
