package server

import "testing"

// TestOnPostgres runs tests of the site on the PostgreSQL store: whole
// games through the API and over live connections, racing moves and
// racing servers, clocks, the computer, offers, chat and push. Their
// servers open PostgreSQL because they run under this test
// (openTestStore).
func TestOnPostgres(t *testing.T) {
	for name, test := range map[string]func(*testing.T){
		"TestCreateJoinPlay":                           TestCreateJoinPlay,
		"TestWholeGameAndRematch":                      TestWholeGameAndRematch,
		"TestResign":                                   TestResign,
		"TestBadInput":                                 TestBadInput,
		"TestLiveGame":                                 TestLiveGame,
		"TestLiveRefusals":                             TestLiveRefusals,
		"TestRacingMoves":                              TestRacingMoves,
		"TestRacingServers":                            TestRacingServers,
		"TestPlayOnFromARecord":                        TestPlayOnFromARecord,
		"TestForcedPassIsStoredWithTheMove":            TestForcedPassIsStoredWithTheMove,
		"TestClocksSurviveARestart":                    TestClocksSurviveARestart,
		"TestFlagFallsWithNobodyConnected":             TestFlagFallsWithNobodyConnected,
		"TestWholeGameAgainstTheComputerThroughTheAPI": TestWholeGameAgainstTheComputerThroughTheAPI,
		"TestComputerMovesAfterARestart":               TestComputerMovesAfterARestart,
		"TestTakeback":                                 TestTakeback,
		"TestOfferRacesMove":                           TestOfferRacesMove,
		"TestChatReachesPlayersOnly":                   TestChatReachesPlayersOnly,
		"TestPushNotices":                              TestPushNotices,
		"TestNames":                                    TestNames,
		"TestSeatsThroughPages":                        TestSeatsThroughPages,
		"TestMetrics":                                  TestMetrics,
		"TestHealthAndReadiness":                       TestHealthAndReadiness,
		"TestOneCookieHoldsEverySeat":                  TestOneCookieHoldsEverySeat,
		"TestMyGames":                                  TestMyGames,
		"TestIdleGamesLeaveMemory":                     TestIdleGamesLeaveMemory,
		"TestEventsAreChangesOfConstantSize":           TestEventsAreChangesOfConstantSize,
	} {
		t.Run(name, test)
	}
}
