/* -*- mode: C++; c-basic-offset: 2; indent-tabs-mode: nil -*- */
/*
 *  Main authors:
 *     Mikael Zayenz Lagerkvist <lagerkvist@gecode.dev>
 *     Guido Tack <tack@gecode.dev>
 *     Christian Schulte <schulte@gecode.dev>
 *
 *  Copyright:
 *     Mikael Zayenz Lagerkvist, 2005
 *     Guido Tack, 2005
 *     Christian Schulte, 2005
 *
 *  This file is part of Gecode, the generic constraint
 *  development environment:
 *     http://www.gecode.dev
 *
 *  Permission is hereby granted, free of charge, to any person obtaining
 *  a copy of this software and associated documentation files (the
 *  "Software"), to deal in the Software without restriction, including
 *  without limitation the rights to use, copy, modify, merge, publish,
 *  distribute, sublicense, and/or sell copies of the Software, and to
 *  permit persons to whom the Software is furnished to do so, subject to
 *  the following conditions:
 *
 *  The above copyright notice and this permission notice shall be
 *  included in all copies or substantial portions of the Software.
 *
 *  THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
 *  EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 *  MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 *  NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
 *  LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION
 *  OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
 *  WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 *
 */

namespace {
  extern const char* examples[];
  extern const unsigned int n_examples;
  int example_size(const char *s);
  int sudokuField(const char *s, int n, int i, int j);

  /** \name %Sudoku specifications
   *
   * Each specification gives the initial positions that are filled in,
   * with blank squares represented as zeroes.
   *
   * \relates Sudoku
   */
  //@{

  /// The specifications
  const char* examples[] = {
    // 0
    "...2.5..."
    ".9....73."
    "..2..9.6."
    "2.....4.9"
    "....7...."
    "6.9.....1"
    ".8.4..1.."
    ".63....8."
    "...6.8..."
    ,
    // 1
    "3..9.4..1"
    "..2...4.."
    ".61...79."
    "6..247..5"
    "........."
    "2..836..4"
    ".46...23."
    "..9...6.."
    "5..3.9..8"
    ,
    // 18
    // The following minimal 25*25 Sudokus are from Alain Frisch
    // Sudoku website http://www.eleves.ens.fr/home/frisch/sudoku.html
    "...G...9..4.....6F..L8..."
    "CEIN.HDM.OF.1L..A..9PJ.4."
    ".....A...L..JBN.2.D.1...H"
    "P49...JB23.AD..7E..C5F..."
    "A1H....F.N5....I.BL...26."
    "....7..C.6...H4B..1....I5"
    ".F.P...I..B..7.5.L...9..."
    ".L6A...5OF.8P...K.NE..734"
    "B2.E..L...1J.5....O7.K.AP"
    "O.5.CB1.P....3EM....2L.H."
    "2..MJ.A...9.3.7......P.8C"
    ".....CF.DPG62N.E...OH.M.J"
    ".DL..OM..IE.B8..NH...3..K"
    ".CO1F.B.N.AH..P.78.JE...D"
    "E..6.....H......4M.KIB9.."
    "N.J..6......C..1.5.G..H.."
    "...75LG...6..1..CI..4.E.."
    "9K..6.....HGN.O2P.4......"
    ".OA..IP849...2.K3...7GN.."
    "..G....N...P.D9....A...C1"
    "J...M.NAFE.4..23.7....8L."
    ".....J.H9CD1LP..GO....4ME"
    "48NK..5.M......JL.......9"
    ".I.OG....835.A.DH..P....."
    "35......L.J..E....8IG.67B"
    ,
    // 34
    "D92.....G...43.."
    "4CF.....9D.2.6EB"
    ".E.1....F.8BC..A"
    "G56.....A3C....1"
    ".7G5A8....61...."
    "2...C....B7....."
    "..AE.964..G....."
    ".F9.5.7.4......."
    ".....29....A.C.."
    "........645D.1.."
    "....D....1.C.B7F"
    ".....E.C2G...8A9"
    "B..9.G52.....EF6"
    ".256..F.....D.B."
    "E13.6.D........7"
    "A...8BC3....954."
    ,

    // http://janko.at/Raetsel/Sudoku/302.a.htm,
    // 90
    //".N..JG..O7591...8I....L.."
    ".ND.JG6.O7591..F8IP.4.LM."
    "FG.M.B8...P.E...CJ..H...."
    "...........G.4.H.D.O.NJA2"
    ".....J.EN4.L6MA.B.2......"
    "HE..2..DC.....F4KMA.B.9O8"
    "M....62...47C19......E5.."
    ".I2.8M.JGL...ADN..K..3.F7"
    "..H3.5..89....I.J.....NL."
    "1B..9.FAP.6.N....537.H..O"
    "......1..N...O...LC.68.PG"
    "KOA.FNBH.....7.C.....M..6"
    "45.ECP.I..N.F.J1...MK.79."
    "I.L..8.O..9.P...A...2.1J."
    "..621.D.M.....B8LG..P..CH"
    ".HP.N7E.L1....3..B..O.G45"
    "....BIO....5.C.P...FN48E."
    "...FL.....2.DH..17..59O.."
    "..I.MF..2G.N...A6O.HC.PB."
    "72.1..L...IM.96E.45G....."
    "..9...7M..A.O...I...L...."
    ".C.JA.........1.....E.48."
    "O.BI.......PHL.6..1....5C"
    "G6M...N4FI8...K..H.E....."
    ".L..4.917....BE.G8F.M.I.."
    "8F......5.O3..4...9.....K"
  };

}
