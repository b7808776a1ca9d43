// Package e2e holds the tests that run the real bretter binary: games
// played by clicking in several independent browsers, and the durability
// test that kills the server in the middle of a game. It has no code of its
// own outside its tests.
package e2e
