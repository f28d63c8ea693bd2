A small tree, drawn for PuzzleLab's tests (MIT).

#d
  g:g  green
  b:b  #8b4513
: rows
2g
4g
6g
4g
2b
2b
: columns
1g
3g
4g 2b
4g 2b
3g
1g
:
