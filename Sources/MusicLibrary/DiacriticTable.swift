/// Letters with diacritics and the base letter each folds to, generated from
/// Unicode's canonical decompositions (NFD without its combining marks) for
/// Latin-1, Latin Extended-A/B, Latin Extended Additional and Greek, plus the
/// letters that have no decomposition but that listeners type without their
/// stroke (ø, đ, ł, ħ, dotless ı). The standard library has no public NFD, and
/// Foundation is not allowed here; SQLite's own folding is not used either, so
/// the index and the pure matcher cannot disagree.
enum DiacriticTable {
    static let folded: [Unicode.Scalar: Unicode.Scalar] = {
        let from = Array((
            "ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆ" +
            "ćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐő" +
            "ŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛ" +
            "ǜǞǟǠǡǢǣǦǧǨǩǪǫǬǭǮǯǰǴǵǸǹǺǻǼǽǾǿȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧ" +
            "ȨȩȪȫȬȭȮȯȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣḤḥḦḧḨḩḪḫḬḭḮḯ" +
            "ḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫ" +
            "ṬṭṮṯṰṱṲṳṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẛẠạẢảẤấẦầẨẩẪẫẬ" +
            "ậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨ" +
            "ứỪừỬửỮữỰựỲỳỴỵỶỷỸỹΆ·ΈΉΊΌΎΏΐΪΫάέήίΰϊϋόύώØøĐđŁłĦħı"
        ).unicodeScalars)
        let to = Array((
            "aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaac" +
            "cccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooo" +
            "rrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzoouuaaiioouuuuuuuuu" +
            "uaaaaææggkkooooʒʒjggnnaaææøøaaaaeeeeiiiioooorrrruuuusstthhaa" +
            "eeooooooooyyaabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiii" +
            "kkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrrsssssssssstt" +
            "ttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyyzzzzzzhtwyſaaaaaaaaaaaaa" +
            "aaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuu" +
            "uuuuuuuuuyyyyyyyyα·εηιουωιιυαεηιυιυουωooddllhhi"
        ).unicodeScalars)
        precondition(from.count == to.count, "the diacritic table's halves differ in length")
        return Dictionary(uniqueKeysWithValues: zip(from, to))
    }()
}
