package types

import "testing"

func TestCast(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		to   *Type
		want string
	}{
		{StringValue("42"), Int64, "42"},
		{StringValue(" 0x10 "), Int64, "16"},
		{Float64Value(2.5), Int64, "3"},
		{Float64Value(-2.5), Int64, "-3"},
		{Int64Value(3), Bool, "TRUE"},
		{StringValue("TRUE"), Bool, "TRUE"},
		{BytesValue([]byte("ab")), String, `"ab"`},
		{StringValue("2022-01-10T13:14:00Z"), Timestamp, `TIMESTAMP "2022-01-10T13:14:00Z"`},
		{StringValue("2024-06-01"), Date, `DATE "2024-06-01"`},
		{Float64Value(1.5), String, `"1.5"`},
		{Float64Value(1234567), String, `"1234567"`},
		{Float64Value(0.30000000000000004), String, `"0.30000000000000004"`},
		{Float64Value(1e20), String, `"1e+20"`},
		{Float32Value(0.1), String, `"0.1"`},
		{TimestampValue(1700000000123456), String, `"2023-11-14 22:13:20.123456+00"`},
	} {
		got, err := Cast(tc.v, tc.to)
		if err != nil {
			t.Fatalf("%s → %s: %v", tc.v, tc.to, err)
		}
		if got.String() != tc.want {
			t.Errorf("%s → %s = %s, want %s", tc.v, tc.to, got, tc.want)
		}
	}
	if _, err := Cast(BytesValue([]byte{0xff}), String); err == nil {
		t.Error("invalid UTF-8 cast succeeded")
	}
	if CanCast(Bytes, Int64) {
		t.Error("BYTES → INT64 allowed")
	}
}

func TestCastEnum(t *testing.T) {
	plain := EnumOf("b.pkg.E")
	named := EnumOf("b.pkg.E")
	named.EnumName = func(n int64) (string, bool) { return map[int64]string{1: "ONE"}[n], n == 1 }
	named.EnumNumber = func(s string) (int64, bool) { return 1, s == "ONE" }
	for _, tc := range []struct {
		v    Value
		to   *Type
		want string
	}{
		{EnumValue(named, 1), String, `"ONE"`},
		{EnumValue(named, 7), String, `"7"`}, // a number the enum does not name
		{EnumValue(plain, 1), String, `"1"`},
		{StringValue("ONE"), named, "1"},
		{StringValue("3"), plain, "3"},
	} {
		got, err := Cast(tc.v, tc.to)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s → %s = %s, %v; want %s", tc.v, tc.to, got, err, tc.want)
		}
	}
	if _, err := Cast(StringValue("TWO"), named); err == nil {
		t.Error("an unknown enum name cast")
	}
}
