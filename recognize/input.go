package recognize

// InputBox returns the rows of the program's live input box (its composer)
// on scr, as recognizer id (or auto) locates it: the rows from its manifest's
// input_marker, else between the last two horizontal rules, else after the
// only rule, else the last row (the regions input_box and above_input_box
// rest on the same box). The recognizer resolved is returned with the rows.
// Errors: ErrUnknownRecognizer.
func (s *Set) InputBox(id string, scr Screen) (rows []string, recognizer string, err error) {
	rid, err := s.Resolve(id, scr)
	if err != nil {
		return nil, "", err
	}
	v := newView(scr)
	box, _, _ := v.inputBox(s.Manifest(rid))
	if box.from < 0 || box.to > len(v.rows) || box.from >= box.to {
		return nil, rid, nil
	}
	return append([]string(nil), v.rows[box.from:box.to]...), rid, nil
}
