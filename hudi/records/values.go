package records

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"
	"github.com/twmb/avro"
)

// Values of logical types keep their meaning through every output: a Decimal prints its exact
// digits (a JSON number, never a float), a Date its calendar day, a timestamp (time.Time, UTC)
// its instant with the stored precision. Binary values stay []byte (base64 in JSON).

// Decimal is an exact decimal number in plain notation ("-12.340"), scale digits after the
// point as stored.
type Decimal string

// MarshalJSON writes the digits as a JSON number, exactly.
func (d Decimal) MarshalJSON() ([]byte, error) { return []byte(d), nil }

func (d Decimal) String() string { return string(d) }

// Date is a calendar day (Parquet DATE, Avro date).
type Date struct{ time.Time }

func (d Date) String() string { return d.Format(time.DateOnly) }

// MarshalJSON writes "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// decimalFromUnscaled renders unscaled × 10^-scale.
func decimalFromUnscaled(unscaled *big.Int, scale int) Decimal {
	neg := unscaled.Sign() < 0
	digits := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	} else if scale < 0 {
		digits += strings.Repeat("0", -scale)
	}
	if neg {
		digits = "-" + digits
	}
	return Decimal(digits)
}

// bigEndianSigned reads a two's-complement big-endian integer (Parquet and Avro decimals).
func bigEndianSigned(b []byte) *big.Int {
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(b))*8))
	}
	return n
}

// parquetLeaf converts one Parquet leaf value by its logical (or legacy converted) type.
func parquetLeaf(v parquet.Value, t parquet.Type) any {
	if v.IsNull() {
		return nil
	}
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		switch l := lt.Value.(type) {
		case *format.DecimalType:
			return decimalValue(v, int(l.Scale))
		case *format.DateType:
			return dateValue(v)
		case *format.TimestampType:
			return timestampValue(v, l.Unit.Value)
		case *format.StringType, *format.EnumType, *format.JsonType, *format.UUIDType:
			if v.Kind() == parquet.FixedLenByteArray && len(v.ByteArray()) == 16 {
				if _, ok := l.(*format.UUIDType); ok {
					return uuidString(v.ByteArray())
				}
			}
			return string(v.ByteArray())
		}
	}
	if ct := t.ConvertedType(); ct != nil {
		switch *ct {
		case deprecated.UTF8, deprecated.Enum, deprecated.Json:
			return string(v.ByteArray())
		case deprecated.Date:
			return dateValue(v)
		case deprecated.TimestampMillis:
			return timestampValue(v, &format.MilliSeconds{})
		case deprecated.TimestampMicros:
			return timestampValue(v, &format.MicroSeconds{})
		}
	}
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean()
	case parquet.Int32:
		return v.Int32()
	case parquet.Int64:
		return v.Int64()
	case parquet.Float:
		return v.Float()
	case parquet.Double:
		return v.Double()
	case parquet.Int96:
		return int96Time(v.Int96())
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return append([]byte(nil), v.ByteArray()...)
	}
	return v.String()
}

func decimalValue(v parquet.Value, scale int) any {
	var u *big.Int
	switch v.Kind() {
	case parquet.Int32:
		u = big.NewInt(int64(v.Int32()))
	case parquet.Int64:
		u = big.NewInt(v.Int64())
	case parquet.ByteArray, parquet.FixedLenByteArray:
		u = bigEndianSigned(v.ByteArray())
	default:
		return v.String()
	}
	return decimalFromUnscaled(u, scale)
}

func dateValue(v parquet.Value) any {
	if v.Kind() != parquet.Int32 {
		return v.String()
	}
	return Date{time.Unix(int64(v.Int32())*86400, 0).UTC()}
}

func timestampValue(v parquet.Value, unit format.TimeUnitValue) any {
	if v.Kind() == parquet.Int96 {
		return int96Time(v.Int96())
	}
	if v.Kind() != parquet.Int64 {
		return v.String()
	}
	n := v.Int64()
	switch unit.(type) {
	case *format.MilliSeconds:
		return time.UnixMilli(n).UTC()
	case *format.NanoSeconds:
		return time.Unix(0, n).UTC()
	}
	return time.UnixMicro(n).UTC()
}

// int96Time decodes Spark's legacy INT96 timestamp: nanoseconds of the day, then the Julian day.
func int96Time(x deprecated.Int96) time.Time {
	var b [12]byte
	binary.LittleEndian.PutUint32(b[0:], x[0])
	binary.LittleEndian.PutUint32(b[4:], x[1])
	binary.LittleEndian.PutUint32(b[8:], x[2])
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	day := int64(binary.LittleEndian.Uint32(b[8:]))
	const julianUnixEpoch = 2440588
	return time.Unix((day-julianUnixEpoch)*86400, nanos).UTC()
}

func uuidString(b []byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func isListNode(n parquet.Node) bool {
	if lt := n.Type().LogicalType(); lt != nil {
		if _, ok := lt.Value.(*format.ListType); ok {
			return true
		}
	}
	ct := n.Type().ConvertedType()
	return ct != nil && *ct == deprecated.List
}

func isMapNode(n parquet.Node) bool {
	if lt := n.Type().LogicalType(); lt != nil {
		if _, ok := lt.Value.(*format.MapType); ok {
			return true
		}
	}
	ct := n.Type().ConvertedType()
	return ct != nil && (*ct == deprecated.Map || *ct == deprecated.MapKeyValue)
}

// Avro: decimals keep the schema's scale and dates become Date; timestamps decode to time.Time.
var avroLogical = []avro.SchemaOpt{
	avro.WithCustomType(avro.CustomType{LogicalType: "decimal", AvroType: "bytes", Decode: avroDecimal}),
	avro.WithCustomType(avro.CustomType{LogicalType: "decimal", AvroType: "fixed", Decode: avroDecimal}),
	avro.WithCustomType(avro.CustomType{LogicalType: "date", AvroType: "int", Decode: func(v any, _ *avro.SchemaNode) (any, error) {
		d, ok := v.(int32)
		if !ok {
			return nil, avro.ErrSkipCustomType
		}
		return Date{time.Unix(int64(d)*86400, 0).UTC()}, nil
	}}),
}

func avroDecimal(v any, s *avro.SchemaNode) (any, error) {
	var b []byte
	switch x := v.(type) {
	case []byte:
		b = x
	default:
		return nil, avro.ErrSkipCustomType
	}
	return decimalFromUnscaled(bigEndianSigned(b), s.Scale), nil
}

// avroValue makes decoded Avro values printable: NaN/Inf floats (no JSON form) become strings.
func avroValue(v any) any {
	switch x := v.(type) {
	case float32, float64:
		return JSONValue(x) // same NaN/Inf spelling as JSON output; finite values unchanged
	case map[string]any:
		for k, e := range x {
			x[k] = avroValue(e)
		}
	case []any:
		for i, e := range x {
			x[i] = avroValue(e)
		}
	}
	return v
}
